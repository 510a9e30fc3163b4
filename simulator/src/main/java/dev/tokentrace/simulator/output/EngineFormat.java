package dev.tokentrace.simulator.output;

import dev.tokentrace.event.Engine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One format generation of one engine: which lines, fields and IDs its outputs have. The versions
 * are representative releases of the periods in {@code formats/<engine>.md}; {@link #era()} is a
 * date inside that period, the default start of a simulated run.
 */
public enum EngineFormat {
  /**
   * vLLM ≈v0.7 (2025-01, V0 engine, MQLLMEngine): {@code INFO MM-DD HH:MM:SS file.py:N]} header
   * (docs/formats/vllm.md#record-header), 5-s V0 stats (docs/formats/vllm.md#v0-stats-line),
   * request logging on by default, V0 OTLP spans.
   */
  VLLM_0_7(Engine.VLLM, "0.7", "2025-01-21T09:00:00.250Z", false, false, 16),
  /**
   * vLLM ≈v0.11.0 (2025-10, V1): ANSI-colored {@code (APIServer pid=N)} prefix
   * (docs/formats/vllm.md#process-prefix), bracketed file info, {@code Engine 000:} stats every 10
   * s (docs/formats/vllm.md#v1-stats-line), V1 OTLP spans with prefill/decode.
   */
  VLLM_0_11(Engine.VLLM, "0.11", "2025-10-21T09:00:00.250Z", true, true, 16),
  /**
   * vLLM v0.16.0 (2026-02, V1): uncolored prefix, parts-built stats with {@code Preemptions},
   * {@code Added request} IDs with the 8-hex engine suffix (docs/formats/vllm.md#request-ids),
   * {@code Iteration(i)} lines (docs/formats/vllm.md#scheduler-lines), OTLP scope {@code
   * vllm.tracing.otel} (docs/formats/vllm.md#otlp-spans).
   */
  VLLM_0_16(Engine.VLLM, "0.16", "2026-02-24T09:00:00.250Z", true, true, 16),
  /**
   * SGLang v0.4.5 (2025-04): {@code [YYYY-MM-DD HH:MM:SS TP0]} prefix
   * (docs/formats/sglang.md#rank-tags), {@code Prefill batch.}/{@code Decode batch.} lines with
   * trailing {@code ", "} (docs/formats/sglang.md#prefill-batch-line,
   * docs/formats/sglang.md#decode-batch-line), Receive/Finish request lines whose meta_info has
   * only {@code e2e_latency} (docs/formats/sglang.md#request-lines).
   */
  SGLANG_0_4(Engine.SGLANG, "0.4.5", "2025-04-08T09:00:00.250Z", true, false, 1),
  /**
   * SGLang v0.5.6 (2025-12): rank tags only for TP &gt; 1, {@code Prefill batch,} / {@code Decode
   * batch,} headers, meta_info timing keys with {@code --enable-metrics}
   * (docs/formats/sglang.md#meta-info-keys), and the per-request metrics export file
   * (docs/formats/sglang.md#metrics-export-file).
   */
  SGLANG_0_5(Engine.SGLANG, "0.5.6", "2025-12-09T09:00:00.250Z", true, false, 1),
  /**
   * TensorRT-LLM 1.1 (2025-10, PyTorch backend via trtllm-serve): Python logger lines, {@code
   * print_iter_log} format C (docs/formats/trtllm.md#iteration-log-line), IterationStats JSON
   * (docs/formats/trtllm.md#iteration-stats-json) and {@code /perf_metrics}
   * (docs/formats/trtllm.md#perf-metrics).
   */
  TRTLLM_1_1(Engine.TRTLLM, "1.1", "2025-10-14T09:00:00.250Z", false, true, 32);

  private final Engine engine;
  private final String version;
  private final Instant era;
  private final boolean chunkedPrefill;
  private final boolean mixedBatches;
  private final int blockSize;

  EngineFormat(
      Engine engine,
      String version,
      String era,
      boolean chunkedPrefill,
      boolean mixedBatches,
      int blockSize) {
    this.engine = engine;
    this.version = version;
    this.era = Instant.parse(era);
    this.chunkedPrefill = chunkedPrefill;
    this.mixedBatches = mixedBatches;
    this.blockSize = blockSize;
  }

  public Engine engine() {
    return engine;
  }

  public String version() {
    return version;
  }

  /** A moment in this generation's period: the default start of a run. */
  public Instant era() {
    return era;
  }

  /** Whether this engine version splits long prompts over steps by default. */
  public boolean chunkedPrefill() {
    return chunkedPrefill;
  }

  /** Whether decodes and prefill chunks share a step by default. */
  public boolean mixedBatches() {
    return mixedBatches;
  }

  /** KV cache block (page) size in tokens by default. */
  public int blockSize() {
    return blockSize;
  }

  /** The newest generation of an engine. */
  public static EngineFormat latest(Engine engine) {
    EngineFormat latest = null;
    for (EngineFormat format : values()) {
      if (format.engine == engine) {
        latest = format;
      }
    }
    if (latest == null) {
      throw new IllegalStateException("no format for " + engine);
    }
    return latest;
  }

  /**
   * The generation of {@code engine} named by {@code version}: exact, or a prefix such as {@code
   * 0.5} for {@code 0.5.6}.
   *
   * @throws IllegalArgumentException listing the known versions
   */
  public static EngineFormat of(Engine engine, String version) {
    List<String> known = new ArrayList<>();
    for (EngineFormat format : values()) {
      if (format.engine == engine) {
        if (format.version.equals(version) || format.version.startsWith(version + ".")) {
          return format;
        }
        known.add(format.version);
      }
    }
    throw new IllegalArgumentException(
        "unknown "
            + engine.id()
            + " format version '"
            + version
            + "' (known: "
            + String.join(", ", known)
            + ")");
  }
}
