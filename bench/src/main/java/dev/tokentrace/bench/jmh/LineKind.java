package dev.tokentrace.bench.jmh;

import dev.tokentrace.event.Engine;
import java.util.List;
import java.util.function.Predicate;

/**
 * A kind of line the parser benchmark measures: the engine, the checked-in sample files (under
 * {@code samples/<engine>/}) it is taken from and how to recognize it there. The {@code *_MIXED}
 * kinds take every line of one scenario's server log in order: a real-looking mix of request,
 * stats, batch, notice and noise lines.
 */
enum LineKind {
  VLLM_STATS(
      Engine.VLLM,
      List.of("v0.7-baseline/server.log", "v0.16-concurrency-sweep/server.log"),
      line -> line.contains("Avg prompt throughput")),
  VLLM_ITERATION(
      Engine.VLLM,
      List.of("formats/2026-05-main-plain-iteration-details/server.log"),
      line -> line.contains("Iteration(")),
  VLLM_REQUEST(
      Engine.VLLM,
      List.of("v0.16-concurrency-sweep/server.log"),
      line -> line.contains("Received request ")),
  VLLM_OTLP(
      Engine.VLLM,
      List.of("v0.16-concurrency-sweep/otlp.jsonl", "v0.7-baseline/otlp.jsonl"),
      line -> line.startsWith("{")),
  VLLM_MIXED(Engine.VLLM, List.of("v0.16-concurrency-sweep/server.log"), line -> true),
  SGLANG_DECODE(
      Engine.SGLANG,
      List.of("v0.4.5-baseline/server.log", "v0.5.6-retries/server.log"),
      line -> line.contains("Decode batch")),
  SGLANG_PREFILL(
      Engine.SGLANG,
      List.of("v0.4.5-baseline/server.log", "v0.5.6-retries/server.log"),
      line -> line.contains("Prefill batch")),
  SGLANG_REQUEST(
      Engine.SGLANG,
      List.of("v0.5.6-retries/server.log"),
      line -> line.contains("Receive:") || line.contains("Finish:")),
  SGLANG_MIXED(Engine.SGLANG, List.of("v0.5.6-retries/server.log"), line -> true),
  TRTLLM_ITER_LOG(
      Engine.TRTLLM,
      List.of("v1.1-client-queue-bound/server.log", "v1.1-prefill-bound/server.log"),
      line -> line.contains("iter = ")),
  TRTLLM_STATS_JSON(
      Engine.TRTLLM,
      List.of("v1.1-concurrency-sweep/iteration_stats.jsonl"),
      line -> line.startsWith("{")),
  TRTLLM_MIXED(Engine.TRTLLM, List.of("v1.1-client-queue-bound/server.log"), line -> true);

  private final Engine engine;
  private final List<String> files;
  private final Predicate<String> matches;

  LineKind(Engine engine, List<String> files, Predicate<String> matches) {
    this.engine = engine;
    this.files = files;
    this.matches = matches;
  }

  Engine engine() {
    return engine;
  }

  /** Sample files relative to {@code samples/<engine>/}, read in this order. */
  List<String> files() {
    return files;
  }

  boolean matches(String line) {
    return matches.test(line);
  }

  /** Whether issue 8's throughput target applies: periodic stats and per-step batch lines. */
  boolean statsOrBatch() {
    return this == VLLM_STATS
        || this == VLLM_ITERATION
        || this == SGLANG_DECODE
        || this == SGLANG_PREFILL
        || this == TRTLLM_ITER_LOG
        || this == TRTLLM_STATS_JSON;
  }
}
