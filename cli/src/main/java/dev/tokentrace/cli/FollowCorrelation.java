package dev.tokentrace.cli;

import dev.tokentrace.app.CorrelateEngines;
import dev.tokentrace.app.CorrelationRounds;
import dev.tokentrace.app.Workspace;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code correlate --follow}: the application layer's {@link CorrelationRounds} until SIGTERM or
 * Ctrl-C, which the command's shutdown hook turns into the rounds' stop
 * (docs/live.md#live-attribution).
 */
final class FollowCorrelation {
  private final CommandSpec spec;
  private final CorrelationRounds rounds;

  FollowCorrelation(
      CommandSpec spec,
      Workspace workspace,
      AttributionSettings rules,
      boolean writeLake,
      Duration interval) {
    this.spec = spec;
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
      rounds.follow(stop, err);
      hook.finished(ExitCodes.OK);
      return ExitCodes.OK;
    }
  }
}
