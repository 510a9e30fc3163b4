package dev.tokentrace.event;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A fact parsed from an inference server's output. Immutable and thread-safe.
 *
 * <p>Every event carries the common envelope: engine, instance (the server's name, given by the
 * user), wall-clock timestamp in UTC (null where the source has none, e.g. SGLang before v0.2.14 or
 * TensorRT-LLM steady-clock exports without a known offset) and the source position. The JSON
 * {@code type} names are stable: they are topic payloads, table names and golden-file content.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
  @JsonSubTypes.Type(value = RequestArrived.class, name = RequestArrived.TYPE),
  @JsonSubTypes.Type(value = RequestTiming.class, name = RequestTiming.TYPE),
  @JsonSubTypes.Type(value = RequestFinished.class, name = RequestFinished.TYPE),
  @JsonSubTypes.Type(value = RequestAborted.class, name = RequestAborted.TYPE),
  @JsonSubTypes.Type(value = EngineStats.class, name = EngineStats.TYPE),
  @JsonSubTypes.Type(value = BatchStep.class, name = BatchStep.TYPE),
  @JsonSubTypes.Type(value = ServerNotice.class, name = ServerNotice.TYPE),
  @JsonSubTypes.Type(value = ServerConfig.class, name = ServerConfig.TYPE),
  @JsonSubTypes.Type(value = GpuSample.class, name = GpuSample.TYPE),
  @JsonSubTypes.Type(value = GpuProcess.class, name = GpuProcess.TYPE),
  @JsonSubTypes.Type(value = ServerHistogram.class, name = ServerHistogram.TYPE),
  @JsonSubTypes.Type(value = KvTransfer.class, name = KvTransfer.TYPE),
  @JsonSubTypes.Type(value = ProxyRequest.class, name = ProxyRequest.TYPE)
})
public sealed interface EngineEvent
    permits RequestArrived,
        RequestTiming,
        RequestFinished,
        RequestAborted,
        EngineStats,
        BatchStep,
        ServerNotice,
        ServerConfig,
        GpuSample,
        GpuProcess,
        ServerHistogram,
        KvTransfer,
        ProxyRequest {

  Engine engine();

  String instance();

  /** As logged, normalized to UTC; null when the source carries no wall-clock time. */
  @Nullable Instant ts();

  SourcePosition source();

  /** The stable JSON type name, also the DuckDB table name. */
  @JsonIgnore
  String type();
}
