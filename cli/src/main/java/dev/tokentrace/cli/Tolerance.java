package dev.tokentrace.cli;

import dev.tokentrace.app.ExitStatus;
import dev.tokentrace.ingest.tail.ParseCounts;
import java.io.PrintWriter;

/**
 * The end-of-run summary and the {@code --max-reject-ratio} verdict (exit 3 when exceeded), as the
 * application layer prints it ({@link ExitStatus#tolerance}).
 */
final class Tolerance {
  private Tolerance() {}

  static int report(ParseCounts counts, double maxRatio, long unreported, PrintWriter err) {
    return ExitStatus.tolerance(counts, maxRatio, unreported, err);
  }
}
