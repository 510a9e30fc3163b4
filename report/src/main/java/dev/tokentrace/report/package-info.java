/**
 * Reports: {@link dev.tokentrace.report.ReportService} recomputes the attribution (unless the
 * current one is by the same rules from the same inputs) and gathers {@link
 * dev.tokentrace.report.ReportData} (with its {@link dev.tokentrace.report.ReportEvidence} and an
 * optional baseline) through the SQL of {@code sql/}; a {@link dev.tokentrace.report.ReportWriter}
 * renders it as Markdown, HTML or JSON. Conclusions compare concurrency levels within a run only.
 * Everything that came from a log is data to escape, never markup. Must not import ingest or Kafka.
 */
@NullMarked
package dev.tokentrace.report;

import org.jspecify.annotations.NullMarked;
