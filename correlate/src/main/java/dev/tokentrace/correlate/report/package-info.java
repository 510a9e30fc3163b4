/**
 * Reports and query output: {@link dev.tokentrace.correlate.report.ReportService} recomputes the
 * attribution (unless the current one is by the same rules from the same inputs) and gathers {@link
 * dev.tokentrace.correlate.report.ReportData} (with its {@link
 * dev.tokentrace.correlate.report.ReportEvidence} and an optional baseline) through the SQL of
 * {@code sql/}; a {@link dev.tokentrace.correlate.report.ReportWriter} renders it as Markdown, HTML
 * or JSON; {@link dev.tokentrace.correlate.report.NamedQueryRunner} runs {@code tokentrace sql},
 * read-only. Conclusions compare concurrency levels within a run only. Everything that came from a
 * log is data to escape, never markup. Must not import ingest or Kafka.
 */
@NullMarked
package dev.tokentrace.correlate.report;

import org.jspecify.annotations.NullMarked;
