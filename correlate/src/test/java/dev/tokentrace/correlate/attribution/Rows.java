package dev.tokentrace.correlate.attribution;

import dev.tokentrace.store.Database;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.jspecify.annotations.Nullable;

/**
 * Inserts client and server rows for attribution tests, as the client loader and the ingest sink
 * would write them (only the columns a test cares about; the rest NULL or defaults).
 */
final class Rows {
  private final Database database;
  private long line;

  Rows(Database database) {
    this.database = database;
  }

  /** A client row; {@code idKind} null stands for rows of older versions (taken as sent). */
  Rows client(Client row) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO client_timing (run_id, client_format, source_path, source_line,"
                            + " request_id, request_key, start_ts, start_mono_s, ttft_ms, e2e_ms,"
                            + " output_tokens, client_queue_ms, prompt_tokens, concurrency, status,"
                            + " warmup, id_kind) VALUES (:run, 'csv', 'client.csv', :line, :key, :key,"
                            + " :start, :mono, :ttft, :e2e, :out, :queue, :prompt, 1, :status, false,"
                            + " :kind)")
                    .bind("run", row.run())
                    .bind("line", ++line)
                    .bind("key", row.key())
                    .bind("start", utc(row.start()))
                    .bind("mono", row.startMonoS())
                    .bind("ttft", row.ttftMs())
                    .bind("e2e", row.e2eMs())
                    .bind("out", row.outputTokens())
                    .bind("queue", row.queueMs())
                    .bind("prompt", row.promptTokens())
                    .bind("status", row.status())
                    .bind("kind", row.idKind())
                    .execute());
    return this;
  }

  /** A request_timing row (an OTLP span unless {@code sourceKind} says otherwise). */
  Rows timing(Timing row) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO request_timing (engine, instance, ts, source_path, source_line,"
                            + " source_offset, request_id, request_key, arrival_ts, queue_ms,"
                            + " prefill_ms, decode_ms, server_ttft_ms, e2e_ms, prompt_tokens,"
                            + " output_tokens, source_kind) VALUES ('vllm', :instance, NULL,"
                            + " 'otlp.jsonl', :line, 0, :key, :key, :arrival, :queue, :prefill,"
                            + " :decode, :ttft, :e2e, :prompt, :out, :kind)")
                    .bind("instance", row.instance())
                    .bind("line", ++line)
                    .bind("key", row.key())
                    .bind("arrival", utc(row.arrival()))
                    .bind("queue", row.queueMs())
                    .bind("prefill", row.prefillMs())
                    .bind("decode", row.decodeMs())
                    .bind("ttft", row.queueMs() + row.prefillMs())
                    .bind("e2e", row.queueMs() + row.prefillMs() + row.decodeMs())
                    .bind("prompt", row.promptTokens())
                    .bind("out", row.outputTokens())
                    .bind("kind", row.sourceKind())
                    .execute());
    return this;
  }

  /**
   * A TensorRT-LLM /perf_metrics record: the engine's counter as the key, the arrival on its steady
   * clock (seconds since boot), no wall time, no token counts.
   */
  Rows steady(
      String counter,
      String instance,
      double arrivalMonoS,
      double queue,
      double prefill,
      double decode) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO request_timing (engine, instance, ts, source_path, source_line,"
                            + " source_offset, request_id, request_key, queue_ms, prefill_ms,"
                            + " decode_ms, server_ttft_ms, e2e_ms, source_kind, arrival_mono_s)"
                            + " VALUES ('trtllm', :instance, NULL, 'perf_metrics.jsonl', :line, 0,"
                            + " :key, :key, :queue, :prefill, :decode, :ttft, :e2e, 'perf_metrics',"
                            + " :mono)")
                    .bind("instance", instance)
                    .bind("line", ++line)
                    .bind("key", counter)
                    .bind("queue", queue)
                    .bind("prefill", prefill)
                    .bind("decode", decode)
                    .bind("ttft", queue + prefill)
                    .bind("e2e", queue + prefill + decode)
                    .bind("mono", arrivalMonoS)
                    .execute());
    return this;
  }

  /**
   * An SGLang {@code Finish} of an aborted attempt (meta_info): finish_reason abort, e2e only, no
   * arrival time.
   */
  Rows abortedFinish(String key, String instance, double e2eMs) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO request_timing (engine, instance, ts, source_path, source_line,"
                            + " source_offset, request_id, request_key, e2e_ms, finish_reason,"
                            + " source_kind) VALUES ('sglang', :instance, NULL, 'server.log', :line,"
                            + " 0, :key, :key, :e2e, 'abort', 'meta_info')")
                    .bind("instance", instance)
                    .bind("line", ++line)
                    .bind("key", key)
                    .bind("e2e", e2eMs)
                    .execute());
    return this;
  }

  /** A request_arrived row (a vLLM Received request line). */
  Rows arrival(String key, String instance, Instant ts) {
    return arrival(key, instance, ts, "server.log");
  }

  /** A request_arrived row of the file {@code path} (an API server or engine log). */
  Rows arrival(String key, String instance, Instant ts, String path) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO request_arrived (engine, instance, ts, source_path, source_line,"
                            + " source_offset, request_id, request_key) VALUES ('vllm', :instance, :ts,"
                            + " :path, :line, 0, :key, :key)")
                    .bind("instance", instance)
                    .bind("path", path)
                    .bind("ts", utc(ts))
                    .bind("line", ++line)
                    .bind("key", key)
                    .execute());
    return this;
  }

  /** A request_aborted row. */
  Rows aborted(String key, String instance) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO request_aborted (engine, instance, ts, source_path, source_line,"
                            + " source_offset, request_id, request_key, reason) VALUES ('vllm',"
                            + " :instance, NULL, 'server.log', :line, 0, :key, :key, 'aborted')")
                    .bind("instance", instance)
                    .bind("line", ++line)
                    .bind("key", key)
                    .execute());
    return this;
  }

  private static @Nullable LocalDateTime utc(@Nullable Instant instant) {
    return instant == null ? null : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  /** A client row's values. */
  record Client(
      String run,
      String key,
      @Nullable Instant start,
      @Nullable Double startMonoS,
      @Nullable Double queueMs,
      @Nullable Double ttftMs,
      @Nullable Double e2eMs,
      @Nullable Integer promptTokens,
      @Nullable Integer outputTokens,
      String status,
      @Nullable String idKind) {
    /** A completed request with a wall-clock start and an ID the client sent. */
    static Client sent(String run, String key, Instant start, double ttft, double e2e, int out) {
      return new Client(run, key, start, null, null, ttft, e2e, 100, out, "ok", "sent");
    }

    /** A completed request whose ID the server never saw, without a start time. */
    static Client local(String run, String key, double ttft, double e2e, int prompt, int out) {
      return new Client(run, key, null, null, null, ttft, e2e, prompt, out, "ok", "local");
    }

    Client withKind(@Nullable String kind) {
      return new Client(
          run,
          key,
          start,
          startMonoS,
          queueMs,
          ttftMs,
          e2eMs,
          promptTokens,
          outputTokens,
          status,
          kind);
    }

    Client withStart(@Nullable Instant value) {
      return new Client(
          run,
          key,
          value,
          startMonoS,
          queueMs,
          ttftMs,
          e2eMs,
          promptTokens,
          outputTokens,
          status,
          idKind);
    }

    Client withMono(double seconds, double queue) {
      return new Client(
          run,
          key,
          null,
          seconds,
          queue,
          ttftMs,
          e2eMs,
          promptTokens,
          outputTokens,
          status,
          idKind);
    }

    Client withTokens(int prompt, int out) {
      return new Client(
          run, key, start, startMonoS, queueMs, ttftMs, e2eMs, prompt, out, status, idKind);
    }
  }

  /** A request_timing row's values; TTFT and E2E are the sums of the phases. */
  record Timing(
      String key,
      String instance,
      @Nullable Instant arrival,
      double queueMs,
      double prefillMs,
      double decodeMs,
      @Nullable Integer promptTokens,
      @Nullable Integer outputTokens,
      String sourceKind) {
    static Timing span(String key, @Nullable Instant arrival, int out) {
      return new Timing(key, "gpu-0", arrival, 2.0, 20.0, 100.0, 100, out, "otlp");
    }

    Timing withTokens(int prompt, int out) {
      return new Timing(
          key, instance, arrival, queueMs, prefillMs, decodeMs, prompt, out, sourceKind);
    }

    Timing on(String otherInstance) {
      return new Timing(
          key,
          otherInstance,
          arrival,
          queueMs,
          prefillMs,
          decodeMs,
          promptTokens,
          outputTokens,
          sourceKind);
    }

    Timing kind(String otherKind) {
      return new Timing(
          key,
          instance,
          arrival,
          queueMs,
          prefillMs,
          decodeMs,
          promptTokens,
          outputTokens,
          otherKind);
    }
  }
}
