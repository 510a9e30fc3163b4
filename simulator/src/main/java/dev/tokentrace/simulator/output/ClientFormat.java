package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.IdScheme;
import java.util.Locale;

/**
 * A benchmark client's per-request file (docs/formats/clients.md). Our own CSV is always written;
 * the others are written in addition, and decide how requests are named.
 */
public enum ClientFormat {
  /** Only the project's CSV, IDs {@code bench-<8 hex>-<i>} sent as X-Request-Id. */
  CSV("csv", IdScheme.PREFIX_INDEX),
  /**
   * AIPerf {@code profile_export.jsonl}: UUIDs sent as X-Request-ID
   * (docs/formats/clients.md#aiperf).
   */
  AIPERF("aiperf", IdScheme.UUID),
  /**
   * {@code vllm bench serve --save-detailed} JSON: prefix + index IDs
   * (docs/formats/clients.md#vllm-bench-serve).
   */
  VLLM_BENCH("vllm-bench", IdScheme.PREFIX_INDEX),
  /**
   * GuideLLM {@code benchmarks.json}: no ID sent, the server's response id kept
   * (docs/formats/clients.md#guidellm).
   */
  GUIDELLM("guidellm", IdScheme.NONE),
  /**
   * GenAI-Perf {@code profile_export.json}: no ID sent, ids only inside SSE text
   * (docs/formats/clients.md#genai-perf).
   */
  GENAI_PERF("genai-perf", IdScheme.NONE);

  private final String id;
  private final IdScheme ids;

  ClientFormat(String id, IdScheme ids) {
    this.id = id;
    this.ids = ids;
  }

  public String id() {
    return id;
  }

  public IdScheme ids() {
    return ids;
  }

  /**
   * Parses an id such as {@code vllm-bench}.
   *
   * @throws IllegalArgumentException listing the known ids
   */
  public static ClientFormat of(String id) {
    String wanted = id.strip().toLowerCase(Locale.ROOT);
    for (ClientFormat format : values()) {
      if (format.id.equals(wanted)) {
        return format;
      }
    }
    throw new IllegalArgumentException(
        "unknown client format '"
            + id
            + "' (known: csv, aiperf, vllm-bench, guidellm, genai-perf)");
  }
}
