/**
 * Benchmark harnesses whose results go to {@code BENCHMARKS.md}: {@link
 * dev.tokentrace.bench.FreshnessBench} measures live tailing end to end (line appended to row
 * queryable in DuckDB) and the shipper's CPU and memory.
 */
@NullMarked
package dev.tokentrace.bench;

import org.jspecify.annotations.NullMarked;
