/**
 * Kafka side of the pipeline: settings and client properties ({@link
 * dev.tokentrace.ingest.kafka.KafkaSettings}), topic names and creation ({@link
 * dev.tokentrace.ingest.kafka.Topics}), the idempotent {@link
 * dev.tokentrace.ingest.kafka.EventProducer} and the in-process {@link
 * dev.tokentrace.ingest.kafka.EmbeddedBroker}. Knows nothing of DuckDB.
 */
@NullMarked
package dev.tokentrace.ingest.kafka;

import org.jspecify.annotations.NullMarked;
