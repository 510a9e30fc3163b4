package dev.tokentrace.simulator;

/** How the benchmark client names its requests and whether the server sees that name. */
public enum IdScheme {
  /**
   * {@code <prefix><index>}, sent as {@code X-Request-Id} or SGLang {@code rid} (our CSV, vLLM
   * bench {@code bench-<8 hex>-<i>}).
   */
  PREFIX_INDEX,
  /** A random UUID per request, sent as {@code X-Request-ID} (AIPerf). */
  UUID,
  /**
   * Nothing is sent: the server makes its own ID and the client learns it from the response
   * (GuideLLM {@code response_id}, GenAI-Perf SSE {@code id}).
   */
  NONE
}
