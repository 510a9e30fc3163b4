package dev.tokentrace.parse.vllm;

/**
 * Record headers of every vLLM generation, composed from the format strings of
 * docs/formats/vllm.md#record-header and docs/formats/vllm.md#process-prefix with our own values
 * (no captured log text). All carry 05-19 10:13:11.
 */
final class VllmLines {
  static final String TS = "2026-05-19T10:13:11.000Z";

  /** ≤ 2024-01: {@code %(levelname)s %(asctime)s %(filename)s:%(lineno)d] %(message)s}. */
  static final String V0_OLD = "INFO 05-19 10:13:11 llm_engine.py:706] ";

  static final String V0 = "INFO 05-19 10:13:11 metrics.py:341] ";

  /** 2024-10-22 on: {@code VLLM_LOGGING_PREFIX} before the level. */
  static final String V0_PREFIXED = "[pod-a] INFO 05-19 10:13:11 metrics.py:341] ";

  /** 2025-02-24 on: {@code [file:line]}. */
  static final String V1 = "INFO 05-19 10:13:11 [loggers.py:116] ";

  /** 2025-07-29 on: the API server's process prefix, here without colour. */
  static final String API = "(APIServer pid=3646) INFO 05-19 10:13:11 [loggers.py:271] ";

  static final String API_WARNING = "(APIServer pid=3646) WARNING 05-19 10:13:11 [serving.py:88] ";

  static final String ENGINE_CORE = "(EngineCore_DP0 pid=3812) INFO 05-19 10:13:11 [core.py:412] ";

  static final String V1_STATS =
      "Engine 000: Avg prompt throughput: 612.4 tokens/s, Avg generation throughput: 95.0"
          + " tokens/s, Running: 8 reqs, Waiting: 3 reqs, GPU KV cache usage: 41.5%, Prefix cache"
          + " hit rate: 12.0%";

  static final String V1_STATS_BODY =
      "{'type':'engine_stats','ts':'"
          + TS
          + "','rank':'Engine 000','prompt_tps':612.4,'gen_tps':95.0,'running':8,'waiting':3,"
          + "'kv_usage_pct':41.5,'prefix_hit_pct':12.0}";

  static final String V1_STATS_FULL =
      "Engine 001: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 256.3"
          + " tokens/s, Running: 32 reqs, Waiting: 17 reqs, Deferred: 2 reqs, Preemptions: 5, GPU"
          + " KV cache usage: 97.8%, Prefix cache hit rate: 0.0%, Corrupted: 1 reqs, External"
          + " prefix cache hit rate: 33.3%, MM cache hit rate: 10.0%";

  private VllmLines() {}

  /** {'type':TYPE,'ts':TS, FIELDS} as a single-quoted JSON literal. */
  static String body(String type, String fields) {
    return "{'type':'"
        + type
        + "','ts':'"
        + TS
        + "'"
        + (fields.isEmpty() ? "" : "," + fields)
        + "}";
  }
}
