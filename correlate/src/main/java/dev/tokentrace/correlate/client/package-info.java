/**
 * Loading client timings into DuckDB: {@link dev.tokentrace.correlate.client.ClientTimingLoader}
 * reads client files with the readers of {@code dev.tokentrace.clients} and writes their rows into
 * {@code client_timing} and {@code rejects} as one run. Must not import ingest or Kafka.
 */
@NullMarked
package dev.tokentrace.correlate.client;

import org.jspecify.annotations.NullMarked;
