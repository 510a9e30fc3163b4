package dev.tokentrace.cli;

import dev.tokentrace.app.CorrelateEngines;
import dev.tokentrace.app.CorrelationRounds;
import dev.tokentrace.app.Workspace;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code correlate --follow}: a round every interval until SIGTERM or Ctrl-C; what a round does is
 * the application layer's {@link CorrelationRounds} (docs/live.md#live-attribution).
 */
final class FollowCorrelation {
  private final CommandSpec spec;
  private final Workspace workspace;
  private final Duration interval;
  private final CorrelationRounds rounds;

  FollowCorrelation(
      CommandSpec spec,
      Workspace workspace,
      AttributionSettings rules,
      boolean writeLake,
      Duration interval) {
    if (interval.isZero() || interval.isNegative()) {
      throw new UsageException("--interval must be positive");
    }
    this.spec = spec;
    this.workspace = workspace;
    this.interval = interval;
    this.rounds =
        new CorrelationRounds(
            workspace,
            rules,
            CommandLines.of(spec),
            writeLake,
            interval,
            CorrelateEngines.standard());
  }

  int run() {
    PrintWriter err = spec.commandLine().getErr();
    CountDownLatch stop = new CountDownLatch(1);
    try (ShutdownHook hook = ShutdownHook.install("correlate", err, stop::countDown)) {
      err.println(
          "correlate: following "
              + (workspace.lake() == null ? "" : "the lake " + workspace.lake() + " into ")
              + workspace.database().file()
              + ", a round every "
              + interval
              + "; Ctrl-C to stop");
      err.flush();
      try {
        do {
          rounds.round(err);
        } while (!stop.await(interval.toMillis(), TimeUnit.MILLISECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // in-process callers stop it this way
      }
      err.println("correlate: stopped after " + rounds.rounds() + " attribution round(s)");
      err.flush();
      hook.finished(ExitCodes.OK);
      return ExitCodes.OK;
    }
  }
}
