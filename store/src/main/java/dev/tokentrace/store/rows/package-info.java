/**
 * Rows of the store's attribution results that more than one module reads: {@link
 * dev.tokentrace.store.rows.DataQuality} ({@code sql/attribution/data_quality.sql}) and {@link
 * dev.tokentrace.store.rows.ClockOffset} ({@code sql/queries/clock_offsets.sql}). {@code correlate}
 * computes them and the report shows them, and the report's model may hold only JDK types, so these
 * records depend on the JDK alone (no Jdbi, no Jackson annotations): {@code ReportArchitectureTest}
 * checks that.
 */
@NullMarked
package dev.tokentrace.store.rows;

import org.jspecify.annotations.NullMarked;
