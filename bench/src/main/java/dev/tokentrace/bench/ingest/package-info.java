/**
 * The ingest throughput benchmark ({@link dev.tokentrace.bench.ingest.IngestBench}): simulator logs
 * through {@code parse}, {@code ship}, {@code sink} and {@code ingest}, each its own JVM so memory
 * is per stage, against DuckDB's own {@code read_json} load of the same events.
 */
@NullMarked
package dev.tokentrace.bench.ingest;

import org.jspecify.annotations.NullMarked;
