package dev.tokentrace.simulator.output;

/**
 * Facts a server prints while starting (docs/formats/vllm.md#startup-configuration-lines and its
 * SGLang and TensorRT-LLM counterparts): capacity, limits and the launch settings.
 *
 * @param leadUs how long before model time 0 the lines are stamped
 * @param kvTokens KV cache capacity in tokens
 * @param kvBlocks KV cache capacity in blocks
 */
record ServerStartup(
    long leadUs,
    long kvTokens,
    long kvBlocks,
    int maxModelLen,
    boolean chunkedPrefill,
    int maxBatchedTokens,
    int maxBatch,
    boolean prefixCaching) {
  /** The model every simulated server serves (the name only: no weights are involved). */
  static final String MODEL = "/models/Llama-3.1-8B-Instruct";

  /** The full release the engine prints ({@code 0.11} is printed as {@code 0.11.0}). */
  static String release(EngineFormat format) {
    String version = format.version();
    return version.indexOf('.') == version.lastIndexOf('.') ? version + ".0" : version;
  }
}
