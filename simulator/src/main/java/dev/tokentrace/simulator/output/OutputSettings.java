package dev.tokentrace.simulator.output;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.time.ZoneId;

/**
 * What the writers produce and how.
 *
 * @param format engine and format generation
 * @param start wall-clock instant of model time 0
 * @param zone zone of the engine's local-time log timestamps
 * @param requestLogging per-request log lines (vLLM {@code --enable-log-requests}, SGLang {@code
 *     --log-requests})
 * @param iterationLog per-step lines (vLLM ≥ 0.16 {@code --enable-logging-iteration-details},
 *     TensorRT-LLM {@code print_iter_log})
 * @param accessLog uvicorn access lines
 * @param otlp vLLM OTLP trace export ({@code otlp.jsonl})
 * @param clientFormat the client file written besides our CSV
 * @param api endpoint the client calls
 * @param maxLogLen vLLM {@code --max-log-len}: prompt characters and token IDs printed per request
 * @param tpSize tensor-parallel size (SGLang rank tags)
 * @param logMillis SGLang {@code SGLANG_LOG_MS=1} (v0.5.6+)
 * @param clientFile the client's files ({@code client_timings.csv} and the client format's); false
 *     for a production scenario, where only the gateway saw the requests
 */
public record OutputSettings(
    EngineFormat format,
    Instant start,
    ZoneId zone,
    boolean requestLogging,
    boolean iterationLog,
    boolean accessLog,
    boolean otlp,
    ClientFormat clientFormat,
    Api api,
    int maxLogLen,
    int tpSize,
    boolean logMillis,
    boolean clientFile) {
  public OutputSettings {
    requireNonNull(format, "format is null");
    requireNonNull(start, "start is null");
    requireNonNull(zone, "zone is null");
    requireNonNull(clientFormat, "clientFormat is null");
    requireNonNull(api, "api is null");
    if (maxLogLen < 0) {
      throw new IllegalArgumentException("maxLogLen must be >= 0: " + maxLogLen);
    }
    if (tpSize < 1) {
      throw new IllegalArgumentException("tpSize must be >= 1: " + tpSize);
    }
  }

  /** With the client's files. */
  public OutputSettings(
      EngineFormat format,
      Instant start,
      ZoneId zone,
      boolean requestLogging,
      boolean iterationLog,
      boolean accessLog,
      boolean otlp,
      ClientFormat clientFormat,
      Api api,
      int maxLogLen,
      int tpSize,
      boolean logMillis) {
    this(
        format,
        start,
        zone,
        requestLogging,
        iterationLog,
        accessLog,
        otlp,
        clientFormat,
        api,
        maxLogLen,
        tpSize,
        logMillis,
        true);
  }
}
