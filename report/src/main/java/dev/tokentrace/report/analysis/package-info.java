/**
 * The analysis: from the rows of {@link dev.tokentrace.report.model.ReportData} to the conclusions
 * of {@link dev.tokentrace.report.model.Report} ({@link
 * dev.tokentrace.report.analysis.ReportAnalysis#of}). Conclusions compare concurrency levels within
 * a run only. Writes structured text, never markup; never imports a renderer or the store.
 */
@NullMarked
package dev.tokentrace.report.analysis;

import org.jspecify.annotations.NullMarked;
