/**
 * Black-box client timings: a {@link dev.tokentrace.clients.ClientTimingReader} per client or
 * gateway format (our CSV, AIPerf, vLLM bench, GuideLLM, GenAI-Perf, SGLang bench, LLMPerf, JMeter,
 * wrk, NGINX, Envoy; {@link dev.tokentrace.clients.ClientTimingReaders} by id or detected by
 * content) turns a file into {@link dev.tokentrace.clients.ClientTiming} rows and {@link
 * dev.tokentrace.clients.ClientRejection}s (never exceptions). Line-oriented formats also read one
 * line at a time ({@link dev.tokentrace.clients.ClientLineReader}), which {@code ship --follow}
 * uses. Pure: no Kafka, no database; {@code correlate} loads the rows into DuckDB, {@code ingest}
 * streams them through Kafka.
 */
@NullMarked
package dev.tokentrace.clients;

import org.jspecify.annotations.NullMarked;
