package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.store.Database;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The rounds of {@code correlate --follow}: a round opens the analysis file, copies the lake's
 * snapshot into it when the lake's files changed, and attributes again when the attribution's
 * inputs (events, client rows, loads) differ from those of the stored attribution, then closes the
 * file. A round attributes again only the requests whose rows changed ({@link
 * CorrelateRequest.Mode#INCREMENTAL}); each round equals the batch attribution of that moment's
 * data, so once the data is complete the result is the batch result
 * (docs/live.md#live-attribution). With a lake, each new attribution is also written to the lake as
 * its next version of {@code request_attribution} (docs/live.md#the-attribution-in-the-lake).
 *
 * <p>{@link #follow} runs a round every interval on the caller's thread ({@link #round} runs one).
 */
public final class CorrelationRounds {
  private final Workspace workspace;
  private final AttributionSettings rules;
  private final String command;
  private final boolean writeLake;
  private final Duration interval;
  private final CorrelateEngine engine;

  /** The lake's request_attribution lags the file's: written at the next round that can. */
  private boolean lakeBehind = true;

  private @Nullable String lakeSeen;

  /** This process's last copy of the lake into the file: the next copy appends to it if it can. */
  private LakeEvents.@Nullable Copied lastCopy;

  private @Nullable String lastProblem;
  private int rounds;

  /**
   * @param writeLake whether each new attribution is written to the workspace's lake (ignored
   *     without one)
   * @param interval how often the caller runs a round, for the retry message
   */
  public CorrelationRounds(
      Workspace workspace,
      AttributionSettings rules,
      String command,
      boolean writeLake,
      Duration interval,
      CorrelateEngine engine) {
    this.workspace = requireNonNull(workspace, "workspace is null");
    this.rules = requireNonNull(rules, "rules is null");
    this.command = requireNonNull(command, "command is null");
    this.writeLake = writeLake && workspace.lake() != null;
    this.interval = requireNonNull(interval, "interval is null");
    this.engine = requireNonNull(engine, "engine is null");
    if (interval.isZero() || interval.isNegative()) {
      throw new BadRequestException("--interval must be positive");
    }
  }

  /**
   * {@code correlate --follow}: says what it follows, runs a round now and then every interval
   * until {@code stop} is counted down (SIGTERM, Ctrl-C) or the thread is interrupted (in-process
   * callers), and says how many rounds attributed.
   */
  public void follow(CountDownLatch stop, PrintWriter err) {
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
        round(err);
      } while (!stop.await(interval.toMillis(), TimeUnit.MILLISECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // in-process callers stop it this way
    }
    err.println("correlate: stopped after " + rounds + " attribution round(s)");
    err.flush();
  }

  /** Attribution rounds run so far (rounds that found the attribution current not counted). */
  public int rounds() {
    return rounds;
  }

  /**
   * Writes the file's request_attribution to the lake as its next version when the lake lags it
   * (docs/live.md#the-attribution-in-the-lake).
   */
  private void writeLake(Database db, PrintWriter err, @Nullable Integer round) {
    if (!writeLake || !lakeBehind) {
      return;
    }
    String written = workspace.writeAttributionToLake(db);
    lakeBehind = false;
    err.println("correlate: " + (round == null ? "" : "round " + round + ": ") + written);
    err.flush();
  }

  /**
   * One round; a failure (a writer holds the file, the lake is not there yet) is said once on
   * {@code err} and left to the next round.
   */
  public void round(PrintWriter err) {
    long started = System.nanoTime();
    try (Database db = workspace.open()) {
      String copiedNote = "";
      long copyNanos = 0;
      if (workspace.lake() != null) {
        String now = workspace.lakeFingerprint();
        if (!now.equals(lakeSeen)) {
          long copyStarted = System.nanoTime();
          LakeEvents.Copied copied;
          try {
            copied = workspace.copyLake(db, lastCopy);
          } catch (RuntimeException e) {
            lastCopy = null; // the next copy replaces the tables whole
            throw e;
          }
          copyNanos = System.nanoTime() - copyStarted;
          lakeSeen = copied.fingerprint();
          lastCopy = copied;
          for (String skipped : copied.skipped()) {
            err.println("correlate: " + skipped);
          }
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
      Correlation correlation = new Correlation(db, Clock.systemUTC(), engine);
      if (correlation.current(rules) != null) {
        // the stored attribution was computed from these very inputs; the lake may still lack it
        // (the first round of this process, or a round whose lake write failed)
        writeLake(db, err, null);
        return;
      }
      long attributeStarted = System.nanoTime();
      CorrelateOutcome outcome =
          correlation.run(
              new CorrelateRequest(rules, command, CorrelateRequest.Mode.INCREMENTAL, false));
      long attributeNanos = System.nanoTime() - attributeStarted;
      rounds++;
      lakeBehind = true;
      err.println(
          "correlate: round "
              + rounds
              + copiedNote
              + ": "
              + outcome.round()
              + "; "
              + outcome.result().dataQuality().summary());
      err.flush();
      long writeStarted = System.nanoTime();
      writeLake(db, err, rounds);
      long writeNanos = System.nanoTime() - writeStarted;
      err.println(
          String.format(
              Locale.ROOT,
              "correlate: round %d took %d ms (lake copy %d, attribution %d [%s], lake write %d)",
              rounds,
              (System.nanoTime() - started) / 1_000_000,
              copyNanos / 1_000_000,
              attributeNanos / 1_000_000,
              outcome.steps(),
              writeNanos / 1_000_000));
      err.flush();
      lastProblem = null;
    } catch (RuntimeException e) {
      // a writer holds the file (clients, sink), or the lake is not there yet: the next round
      String problem = describe(e);
      if (!problem.equals(lastProblem)) {
        err.println("correlate: " + problem + " (retrying every " + interval + ")");
        err.flush();
        lastProblem = problem;
      }
    }
  }

  /** The message of a failure and of its causes, each once, as the command line prints them. */
  static String describe(Throwable e) {
    StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      String message = cause.getMessage();
      if (message != null && text.indexOf(message) < 0) {
        text.append(": ").append(message);
      }
    }
    return text.toString();
  }
}
