package dev.tokentrace.parse.vllm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import org.jspecify.annotations.Nullable;

/**
 * NVIDIA Dynamo's per-request JSON records in disaggregated serving (docs/formats/dynamo.md):
 *
 * <ul>
 *   <li>a worker's {@code SPAN_CLOSED} line of its {@code handle_payload} span ({@code
 *       DYN_LOGGING_JSONL} with span events): one {@code request_timing} (source kind {@code
 *       dynamo_prefill} for {@code "component":"prefill"}, else {@code dynamo_decode}) named by the
 *       line's {@code x_request_id}, arriving at the line's time less {@code time.duration_us};
 *   <li>the frontend's {@code request_end} record (Dynamo's trace sink, bare or under {@code
 *       "event"}): one request's {@code kv_transfer} row (source kind {@code dynamo_request_end})
 *       holding {@code kv_transfer_estimated_latency_ms};
 *   <li>the decode engine's (vLLM's) DEBUG record {@code Finished recving KV transfer for request
 *       <id>} in a worker's log: one request's {@code kv_transfer} row (source kind {@code
 *       vllm_recv_done}) at the transfer's end (docs/formats/dynamo.md#engine-records).
 * </ul>
 *
 * Every other Dynamo JSON line (its log records, other spans, a {@code request_payload} record) is
 * ignored by name. A log record's {@code message} is only compared with {@code SPAN_CLOSED}, and no
 * field that can hold prompt or output text ({@code payload}, {@code io_text}) is read.
 */
final class DynamoRecordLine {
  static final String PREFILL = "dynamo_prefill";
  static final String DECODE = "dynamo_decode";
  static final String REQUEST_END = "dynamo_request_end";
  static final String IGNORED = "dynamo: other json record";

  /** The decode engine's end of a request's KV transfer (docs/formats/dynamo.md#engine-records). */
  static final String RECV_DONE = "vllm_recv_done";

  private static final String RECV_PREFIX = "Finished recving KV transfer for request ";

  /** The trace sinks' schemas: agent tracing (2026-04 →) and request tracing (2026-06 →). */
  private static final String AGENT_SCHEMA = "dynamo.agent.trace.v1";

  private static final String REQUEST_SCHEMA = "dynamo.request.trace.v1";

  private static final ObjectReader READER =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build().reader();

  private DynamoRecordLine() {}

  /**
   * A Dynamo JSONL log line ({@code {"time":"…","level":…}}, docs/formats/dynamo.md#jsonl-lines) or
   * a trace record ({@code "schema":"dynamo.agent.trace.v1"} or {@code dynamo.request.trace.v1}):
   * cheap tests on the text first.
   */
  static boolean matches(String text) {
    int brace = text.indexOf('{');
    if (brace < 0) {
      return false;
    }
    return text.startsWith("{\"time\":\"", brace) && text.contains("\"level\":\"")
        || text.contains("\"schema\":\"" + AGENT_SCHEMA + "\"")
        || text.contains("\"schema\":\"" + REQUEST_SCHEMA + "\"");
  }

  static void parse(String text, SourcePosition position, String instance, ParseOutput sink) {
    JsonNode root;
    try {
      root = READER.readTree(text.substring(text.indexOf('{')));
    } catch (JsonProcessingException e) {
      sink.rejected(Rejection.of(position, Engine.VLLM, "dynamo: invalid json", text));
      return;
    }
    if (root == null || !root.isObject()) {
      sink.rejected(Rejection.of(position, Engine.VLLM, "dynamo: not a json object", text));
      return;
    }
    JsonNode record = root.has("event") ? root.get("event") : root;
    String schema = record.path("schema").asText("");
    if (schema.equals(AGENT_SCHEMA) || schema.equals(REQUEST_SCHEMA)) {
      requestEnd(record, text, position, instance, sink);
    } else if ("SPAN_CLOSED".equals(root.path("message").asText(null))
        && "handle_payload".equals(root.path("span_name").asText(null))) {
      span(root, text, position, instance, sink);
    } else if (root.path("message").asText("").startsWith(RECV_PREFIX)) {
      recvDone(root, text, position, instance, sink);
    } else {
      sink.ignored(position, IGNORED);
    }
  }

  /** docs/formats/dynamo.md#worker-spans */
  private static void span(
      JsonNode line, String text, SourcePosition position, String instance, ParseOutput sink) {
    String id = line.path("x_request_id").asText(null);
    if (id == null || id.isBlank()) {
      sink.ignored(position, "dynamo: span without x_request_id");
      return;
    }
    Instant closed = time(line.path("time").asText(null));
    JsonNode micros = line.get("time.duration_us");
    if (closed == null || micros == null || !micros.canConvertToLong() || micros.asLong() < 0) {
      sink.rejected(
          Rejection.of(
              position, Engine.VLLM, "dynamo: SPAN_CLOSED without time or time.duration_us", text));
      return;
    }
    long durationUs = micros.asLong();
    double ms = BigDecimal.valueOf(durationUs, 3).doubleValue();
    boolean prefill = "prefill".equals(line.path("component").asText(null));
    // the span does not split the worker's queueing from its compute (docs/formats/dynamo.md)
    sink.event(
        new RequestTiming(
            Engine.VLLM,
            instance,
            closed,
            position,
            id,
            RequestKeys.normalize(id),
            closed.minusNanos(durationUs * 1000),
            0.0,
            prefill ? ms : 0.0,
            prefill ? 0.0 : ms,
            prefill ? ms : null,
            ms,
            null,
            null,
            null,
            null,
            prefill ? PREFILL : DECODE,
            null));
  }

  /**
   * vLLM's scheduler record of a finished KV transfer (DEBUG) as Dynamo's logger prints it:
   * docs/formats/dynamo.md#engine-records. One request's {@code kv_transfer} row (side decode) with
   * the transfer's end as {@code ts} and no duration: the attribution measures it from the decode
   * engine's arrival.
   */
  private static void recvDone(
      JsonNode line, String text, SourcePosition position, String instance, ParseOutput sink) {
    String id = line.path("message").asText("").substring(RECV_PREFIX.length()).strip();
    Instant at = time(line.path("time").asText(null));
    if (id.isEmpty() || id.contains(" ") || at == null) {
      sink.rejected(
          Rejection.of(
              position, Engine.VLLM, "dynamo: KV transfer record without time or request", text));
      return;
    }
    // the engine-side ID carries vLLM's random suffix (docs/formats/vllm.md#request-ids)
    String request = RequestKeys.withoutEngineSuffix(id);
    sink.event(
        new KvTransfer(
            Engine.VLLM,
            instance,
            at,
            position,
            request,
            RequestKeys.normalize(request),
            "decode",
            null,
            null,
            1,
            null,
            null,
            null,
            null,
            null,
            null,
            RECV_DONE));
  }

  /** docs/formats/dynamo.md#request-end */
  private static void requestEnd(
      JsonNode record, String text, SourcePosition position, String instance, ParseOutput sink) {
    if (!"request_end".equals(record.path("event_type").asText(null))) {
      sink.ignored(position, IGNORED);
      return;
    }
    JsonNode request = record.path("request");
    String id = request.path("x_request_id").asText(null);
    if (id == null || id.isBlank()) {
      id = request.path("request_id").asText(null);
    }
    JsonNode kv = request.get("kv_transfer_estimated_latency_ms");
    if (id == null || id.isBlank()) {
      sink.rejected(
          Rejection.of(position, Engine.VLLM, "dynamo: request_end without a request id", text));
      return;
    }
    if (kv == null || !kv.isNumber() || kv.asDouble() < 0) {
      sink.ignored(position, "dynamo: request_end without kv_transfer_estimated_latency_ms");
      return;
    }
    JsonNode at = record.get("event_time_unix_ms");
    Instant ts = at != null && at.canConvertToLong() ? Instant.ofEpochMilli(at.asLong()) : null;
    JsonNode decodeWorker = request.path("worker").get("decode_worker_id");
    sink.event(
        new KvTransfer(
            Engine.VLLM,
            instance,
            ts,
            position,
            id,
            RequestKeys.normalize(id),
            "decode",
            decodeWorker == null ? null : decodeWorker.asText(),
            null,
            1,
            kv.asDouble(),
            null,
            null,
            null,
            null,
            null,
            REQUEST_END));
  }

  private static @Nullable Instant time(@Nullable String text) {
    if (text == null) {
      return null;
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeException e) {
      return null;
    }
  }
}
