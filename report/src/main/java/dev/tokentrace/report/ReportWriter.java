package dev.tokentrace.report;

import java.io.IOException;

/**
 * Renders {@link ReportData} in one format. Implementations are stateless and thread-safe, and
 * treat every string that came from a log or file as data (escaped for their format).
 */
public interface ReportWriter {
  ReportFormat format();

  /** Writes the whole report to {@code out} (not closed). */
  void write(ReportData data, Appendable out) throws IOException;
}
