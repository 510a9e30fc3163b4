/**
 * Black-box client timings: a {@link dev.tokentrace.correlate.client.ClientTimingReader} per client
 * format (our CSV, AIPerf, vLLM bench, GuideLLM, GenAI-Perf, SGLang bench, LLMPerf; {@link
 * dev.tokentrace.correlate.client.ClientTimingReaders} by id or detected by content) turns a
 * benchmark client's per-request file into {@link dev.tokentrace.correlate.client.ClientTiming}
 * rows and {@link dev.tokentrace.correlate.client.ClientRejection}s (never exceptions), and {@link
 * dev.tokentrace.correlate.client.ClientTimingLoader} writes them into {@code client_timing} and
 * {@code rejects}. Must not import ingest or Kafka.
 */
@NullMarked
package dev.tokentrace.correlate.client;

import org.jspecify.annotations.NullMarked;
