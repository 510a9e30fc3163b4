package dev.tokentrace.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Locale;

/**
 * The sources tokentrace reads: the three inference engines, and the GPU telemetry tools
 * (nvidia-smi, DCGM exporter) whose events describe the GPUs an engine instance runs on
 * (docs/formats/gpu.md#sources). {@link #id()} is the stable name used everywhere.
 */
public enum Engine {
  VLLM("vllm"),
  SGLANG("sglang"),
  TRTLLM("trtllm"),
  GPU("gpu");

  /** The inference servers, without the GPU telemetry source. */
  public static final List<Engine> SERVERS = List.of(VLLM, SGLANG, TRTLLM);

  private final String id;

  Engine(String id) {
    this.id = id;
  }

  /** Stable lower-case id used in topics, table values, sample directories and JSON. */
  @JsonValue
  public String id() {
    return id;
  }

  /**
   * Parses an engine id.
   *
   * @throws IllegalArgumentException naming the known ids when {@code id} is not one of them
   */
  @JsonCreator
  public static Engine fromId(String id) {
    String wanted = id.trim().toLowerCase(Locale.ROOT);
    for (Engine engine : values()) {
      if (engine.id.equals(wanted)) {
        return engine;
      }
    }
    throw new IllegalArgumentException(
        "unknown engine '" + id + "' (known: vllm, sglang, trtllm, gpu)");
  }

  /** Whether this is an inference server (not the GPU telemetry source). */
  public boolean isServer() {
    return this != GPU;
  }

  @Override
  public String toString() {
    return id;
  }
}
