/**
 * Reports and query output: {@link dev.tokentrace.correlate.report.ReportService} recomputes the
 * attribution and gathers {@link dev.tokentrace.correlate.report.ReportData} through the SQL of
 * {@code sql/}, a {@link dev.tokentrace.correlate.report.ReportWriter} renders it (Markdown now;
 * HTML and JSON later), and {@link dev.tokentrace.correlate.report.NamedQueryRunner} runs {@code
 * tokentrace sql NAME}. Everything that came from a log is data to escape, never markup. Must not
 * import ingest or Kafka.
 */
@NullMarked
package dev.tokentrace.correlate.report;

import org.jspecify.annotations.NullMarked;
