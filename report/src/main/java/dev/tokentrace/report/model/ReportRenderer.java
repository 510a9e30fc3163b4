package dev.tokentrace.report.model;

import java.io.IOException;

/**
 * Writes a {@link Report} in one format. Implementations read the model only (never the store, the
 * analysis or another renderer), are stateless and thread-safe, and treat every string that came
 * from a log or file as data (escaped for their format).
 */
public interface ReportRenderer {
  /** Writes the whole report to {@code out} (not closed). */
  void write(Report report, Appendable out) throws IOException;
}
