package dev.tokentrace.ingest.sink;

/**
 * A snapshot of a running {@link KafkaToDuckDb}, for status lines. Immutable.
 *
 * @param nanoTime {@link System#nanoTime()} when it was taken, for rates
 * @param rows rows committed to DuckDB since the sink was opened (events and rejects)
 * @param batches transactions committed since the sink was opened
 * @param lag records in Kafka not yet written, as of the last poll; -1 while unknown
 */
public record SinkProgress(long nanoTime, long rows, long batches, long lag) {}
