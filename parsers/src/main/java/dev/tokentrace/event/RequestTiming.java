package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.TIMESTAMP;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Per-request server-side durations from a structured source (vLLM OTLP span, SGLang meta_info or
 * metrics export, TensorRT-LLM perf_metrics). All durations in milliseconds, null where the source
 * does not give them. {@code sourceKind} says which source, because definitions differ by source.
 *
 * <p>{@code arrivalMonoS} is the server's arrival time on its own steady clock, in seconds, for
 * sources that have no wall clock (TensorRT-LLM perf metrics): meaningless alone, but the correlate
 * stage maps it onto the client's clock with an estimated offset to match requests by time.
 */
public record RequestTiming(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String requestId,
    String requestKey,
    @Nullable Instant arrivalTs,
    @Nullable Double queueMs,
    @Nullable Double prefillMs,
    @Nullable Double decodeMs,
    @Nullable Double serverTtftMs,
    @Nullable Double e2eMs,
    @Nullable Integer promptTokens,
    @Nullable Integer outputTokens,
    @Nullable Integer cachedTokens,
    @Nullable String finishReason,
    String sourceKind,
    @Nullable Double arrivalMonoS)
    implements EngineEvent {
  public static final String TYPE = "request_timing";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<RequestTiming> TABLE =
      new EventTable<>(
          TYPE,
          RequestTiming.class,
          TableSchema.columns(RequestTiming.class)
              .required("request_id", VARCHAR, RequestTiming::requestId)
              .required("request_key", VARCHAR, RequestTiming::requestKey)
              .optional("arrival_ts", TIMESTAMP, RequestTiming::arrivalTs)
              .optional("queue_ms", DOUBLE, RequestTiming::queueMs)
              .optional("prefill_ms", DOUBLE, RequestTiming::prefillMs)
              .optional("decode_ms", DOUBLE, RequestTiming::decodeMs)
              .optional("server_ttft_ms", DOUBLE, RequestTiming::serverTtftMs)
              .optional("e2e_ms", DOUBLE, RequestTiming::e2eMs)
              .optional("prompt_tokens", INTEGER, RequestTiming::promptTokens)
              .optional("output_tokens", INTEGER, RequestTiming::outputTokens)
              .optional("cached_tokens", INTEGER, RequestTiming::cachedTokens)
              .optional("finish_reason", VARCHAR, RequestTiming::finishReason)
              .required("source_kind", VARCHAR, RequestTiming::sourceKind)
              .optional("arrival_mono_s", DOUBLE, RequestTiming::arrivalMonoS)
              .list(),
          v ->
              new RequestTiming(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.text(1),
                  v.instant(2),
                  v.float64(3),
                  v.float64(4),
                  v.float64(5),
                  v.float64(6),
                  v.float64(7),
                  v.int32(8),
                  v.int32(9),
                  v.int32(10),
                  v.text(11),
                  v.text(12),
                  v.float64(13)));

  public RequestTiming {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(requestId, "requestId is null");
    requireNonNull(requestKey, "requestKey is null");
    requireNonNull(sourceKind, "sourceKind is null");
    EventChecks.notBlank("requestId", requestId);
    EventChecks.finite("queueMs", queueMs);
    EventChecks.finite("prefillMs", prefillMs);
    EventChecks.finite("decodeMs", decodeMs);
    EventChecks.finite("serverTtftMs", serverTtftMs);
    EventChecks.finite("e2eMs", e2eMs);
    EventChecks.nonNegative("promptTokens", promptTokens);
    EventChecks.nonNegative("outputTokens", outputTokens);
    EventChecks.nonNegative("cachedTokens", cachedTokens);
    EventChecks.finite("arrivalMonoS", arrivalMonoS);
  }

  /** Timing from a source with a wall clock (or none at all): no steady-clock arrival. */
  public RequestTiming(
      Engine engine,
      String instance,
      @Nullable Instant ts,
      SourcePosition source,
      String requestId,
      String requestKey,
      @Nullable Instant arrivalTs,
      @Nullable Double queueMs,
      @Nullable Double prefillMs,
      @Nullable Double decodeMs,
      @Nullable Double serverTtftMs,
      @Nullable Double e2eMs,
      @Nullable Integer promptTokens,
      @Nullable Integer outputTokens,
      @Nullable Integer cachedTokens,
      @Nullable String finishReason,
      String sourceKind) {
    this(
        engine,
        instance,
        ts,
        source,
        requestId,
        requestKey,
        arrivalTs,
        queueMs,
        prefillMs,
        decodeMs,
        serverTtftMs,
        e2eMs,
        promptTokens,
        outputTokens,
        cachedTokens,
        finishReason,
        sourceKind,
        null);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
