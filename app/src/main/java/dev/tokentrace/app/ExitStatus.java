package dev.tokentrace.app;

import dev.tokentrace.ingest.tail.ParseCounts;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * How a use case's run ended, as the process exit code the command returns (listed in the README;
 * docs/design.md#cli), and the two verdicts every batch run prints: the reject tolerance and files
 * left out.
 */
public final class ExitStatus {
  public static final int OK = 0;

  /** A broker, database or file system failed. */
  public static final int INFRASTRUCTURE = 1;

  /** Bad usage or configuration; every problem is printed. */
  public static final int USAGE = 2;

  /**
   * More input was rejected than {@code --max-reject-ratio} allows; the summary is printed first.
   */
  public static final int REJECTS = 3;

  /**
   * A batch loaded, but some of its files not (empty, no known format, unreadable) or not whole (a
   * gzip stream cut off); each is reported with path and line.
   */
  public static final int PARTIAL = 4;

  private ExitStatus() {}

  /**
   * The exit code of a batch: {@code code} (the reject verdict) unless it is OK and files had
   * problems, which are printed first.
   */
  public static int batch(int code, List<String> fileProblems, String command, PrintWriter err) {
    if (fileProblems.isEmpty()) {
      return code;
    }
    err.println(
        command
            + ": "
            + fileProblems.size()
            + " file(s) not loaded, or not whole (listed above); the other files were loaded");
    err.flush();
    return code == OK ? PARTIAL : code;
  }

  /**
   * Prints the end-of-run summary, each line in one bucket (docs/design.md#bad-input), and the
   * {@code --max-reject-ratio} verdict: {@link #REJECTS} when exceeded, else {@link #OK}.
   *
   * @param unreported rejected lines not printed one by one
   */
  public static int tolerance(
      ParseCounts counts, double maxRatio, long unreported, PrintWriter err) {
    if (unreported > 0) {
      err.println("... and " + unreported + " more rejected lines (all counted below)");
    }
    double ratio = counts.lines() == 0 ? 0 : (double) counts.rejected() / counts.lines();
    err.println(
        String.format(
            Locale.ROOT,
            "lines=%d parsed=%d ignored=%d rejected=%d (%.2f%%), events=%d",
            counts.lines(),
            counts.parsed(),
            counts.ignored(),
            counts.rejected(),
            100 * ratio,
            counts.events()));
    if (ratio > maxRatio) {
      err.println(
          String.format(
              Locale.ROOT,
              "rejected %.2f%% of lines, more than --max-reject-ratio %.2f%%",
              100 * ratio,
              100 * maxRatio));
      err.flush();
      return REJECTS;
    }
    err.flush();
    return OK;
  }
}
