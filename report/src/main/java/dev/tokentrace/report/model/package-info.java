/**
 * What a report shows: the rows read from the store ({@link
 * dev.tokentrace.report.model.ReportData}, {@link dev.tokentrace.report.model.ReportEvidence}) and
 * the analysis' conclusions as structured text ({@link dev.tokentrace.report.model.Text}, no markup
 * inside), gathered in {@link dev.tokentrace.report.model.Report}. Depends on the JDK only (plus
 * jspecify and Jdbi's constructor annotation); checked by ReportArchitectureTest.
 */
@NullMarked
package dev.tokentrace.report.model;

import org.jspecify.annotations.NullMarked;
