package dev.tokentrace.cli;

import dev.tokentrace.ingest.tail.ParseCounts;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The end-of-run summary, printed once per run, each line in one bucket (docs/design.md#bad-input),
 * and the {@code --max-reject-ratio} verdict (exit 3 when exceeded).
 */
final class Tolerance {
  private Tolerance() {}

  static int report(ParseCounts counts, double maxRatio, long unreported, PrintWriter err) {
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
      return ExitCodes.REJECTS;
    }
    err.flush();
    return ExitCodes.OK;
  }
}
