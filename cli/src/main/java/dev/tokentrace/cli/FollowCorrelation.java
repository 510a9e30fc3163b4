package dev.tokentrace.cli;

import dev.tokentrace.correlate.attribution.AttributionResult;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.live.LakeAttribution;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.store.lake.LakeTableVersions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code correlate --follow}: a round every interval; a round opens the analysis file, copies the
 * lake's snapshot into it when the lake's files changed, and attributes again when the
 * attribution's inputs (events, client rows, loads) differ from those of the stored attribution,
 * then closes the file. A round attributes again only the requests whose rows changed ({@link
 * Attributor#incremental}); each round equals the batch attribution of that moment's data, so once
 * the data is complete the result is the batch result (docs/live.md#live-attribution). With a lake,
 * each new attribution is also written to the lake as its next version of {@code
 * request_attribution} (docs/live.md#the-attribution-in-the-lake).
 */
final class FollowCorrelation {
  private final CommandSpec spec;
  private final DatabaseSettings settings;
  private final AttributionSettings rules;
  private final @Nullable Path lake;
  private final boolean writeLake;
  private final Duration interval;

  /** The lake's request_attribution lags the file's: written at the next round that can. */
  private boolean lakeBehind = true;

  private @Nullable String lakeSeen;

  /** This process's last copy of the lake into the file: the next copy appends to it if it can. */
  private LakeEvents.@Nullable Copied lastCopy;

  private @Nullable String lastProblem;
  private int rounds;

  FollowCorrelation(
      CommandSpec spec,
      DatabaseSettings settings,
      AttributionSettings rules,
      @Nullable Path lake,
      boolean writeLake,
      Duration interval) {
    if (interval.isZero() || interval.isNegative()) {
      throw new UsageException("--interval must be positive");
    }
    this.spec = spec;
    this.settings = settings;
    this.rules = rules;
    this.lake = lake;
    this.writeLake = writeLake && lake != null;
    this.interval = interval;
  }

  int run() {
    PrintWriter err = spec.commandLine().getErr();
    CountDownLatch stop = new CountDownLatch(1);
    try (ShutdownHook hook = ShutdownHook.install("correlate", err, stop::countDown)) {
      err.println(
          "correlate: following "
              + (lake == null ? "" : "the lake " + lake + " into ")
              + settings.file()
              + ", a round every "
              + interval
              + "; Ctrl-C to stop");
      err.flush();
      try {
        do {
          round(err);
        } while (!stop.await(interval.toMillis(), TimeUnit.MILLISECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // in-process callers stop it this way
      }
      err.println("correlate: stopped after " + rounds + " attribution round(s)");
      err.flush();
      hook.finished(ExitCodes.OK);
      return ExitCodes.OK;
    }
  }

  /**
   * Writes the file's request_attribution to the lake as its next version when the lake lags it
   * (docs/live.md#the-attribution-in-the-lake).
   */
  private void writeLake(Database db, PrintWriter err, @Nullable Integer round) {
    if (!writeLake || !lakeBehind || lake == null) {
      return;
    }
    LakeTableVersions.Written written =
        LakeAttribution.write(db, lake, LakeTableVersions.DEFAULT_GRACE);
    lakeBehind = false;
    err.println(
        "correlate: "
            + (round == null ? "" : "round " + round + ": ")
            + LakeAttribution.describe(lake, written));
    err.flush();
  }

  private void round(PrintWriter err) {
    long started = System.nanoTime();
    try (Database db = Database.open(settings)) {
      String copiedNote = "";
      long copyNanos = 0;
      if (lake != null) {
        String now = LakeEvents.fingerprint(LakeSnapshot.scan(lake));
        if (!now.equals(lakeSeen)) {
          long copyStarted = System.nanoTime();
          LakeEvents.Copied copied;
          try {
            copied = LakeEvents.copy(lake, db, lastCopy);
          } catch (RuntimeException e) {
            lastCopy = null; // the next copy replaces the tables whole
            throw e;
          }
          copyNanos = System.nanoTime() - copyStarted;
          lakeSeen = copied.fingerprint();
          lastCopy = copied;
          copiedNote =
              copied.appended()
                  ? " (lake: "
                      + copied.rows()
                      + " rows appended from "
                      + copied.newFiles()
                      + " new of "
                      + copied.files()
                      + " files)"
                  : " (lake: " + copied.rows() + " rows from " + copied.files() + " files)";
        }
      }
      Attributor attributor = new Attributor(db, Clock.systemUTC()).incremental();
      if (attributor.current(rules) != null) {
        // the stored attribution was computed from these very inputs; the lake may still lack it
        // (the first round of this process, or a round whose lake write failed)
        writeLake(db, err, null);
        return;
      }
      long attributeStarted = System.nanoTime();
      AttributionResult result = attributor.run(rules, CommandLines.of(spec));
      long attributeNanos = System.nanoTime() - attributeStarted;
      rounds++;
      lakeBehind = true;
      err.println(
          "correlate: round "
              + rounds
              + copiedNote
              + ": "
              + attributor.lastRound()
              + "; "
              + result.dataQuality().summary());
      err.flush();
      long writeStarted = System.nanoTime();
      writeLake(db, err, rounds);
      long writeNanos = System.nanoTime() - writeStarted;
      err.println(
          String.format(
              java.util.Locale.ROOT,
              "correlate: round %d took %d ms (lake copy %d, attribution %d [%s], lake write %d)",
              rounds,
              (System.nanoTime() - started) / 1_000_000,
              copyNanos / 1_000_000,
              attributeNanos / 1_000_000,
              attributor.lastSteps(),
              writeNanos / 1_000_000));
      err.flush();
      if (lastProblem != null) {
        lastProblem = null;
      }
    } catch (RuntimeException e) {
      // a writer holds the file (clients, sink), or the lake is not there yet: the next round
      String problem = TokentraceMain.describe(e);
      if (!problem.equals(lastProblem)) {
        err.println("correlate: " + problem + " (retrying every " + interval + ")");
        err.flush();
        lastProblem = problem;
      }
    }
  }
}
