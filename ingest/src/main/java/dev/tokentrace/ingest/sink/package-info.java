/**
 * The DuckDB side: {@link dev.tokentrace.ingest.sink.KafkaToDuckDb} consumes the events and rejects
 * topics and writes one table per event type (schema in {@code sql/schema/}) with the Appender,
 * committing the Kafka offsets in the same transaction as the rows. Reads Kafka through the
 * settings of {@code dev.tokentrace.ingest.kafka}; knows nothing of files or parsers.
 */
@NullMarked
package dev.tokentrace.ingest.sink;

import org.jspecify.annotations.NullMarked;
