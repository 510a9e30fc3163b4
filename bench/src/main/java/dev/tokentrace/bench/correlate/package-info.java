/**
 * Correlation benchmark (run by {@code bench/correlate.sh}): {@code correlate} and {@code report}
 * on generated tables of 1 M and 10 M joined requests against a bare DuckDB join computing the same
 * percentiles, each step in its own JVM with its wall time, CPU time, peak heap and peak RSS.
 */
@NullMarked
package dev.tokentrace.bench.correlate;

import org.jspecify.annotations.NullMarked;
