package dev.tokentrace.simulator;

/**
 * The inference server's scheduler and cost model. One engine step lasts {@code stepBaseMs +
 * stepPerSeqMs * sequences + stepPerKvKtokenMs * contextTokens / 1000 + prefillPerTokenMs *
 * prefillTokens}, times a uniform jitter of {@code ±stepJitter}: decode is memory-bandwidth bound
 * (weights plus the KV cache of every sequence are read each step), prefill is compute bound.
 *
 * @param maxBatch most requests running at once (vLLM {@code max_num_seqs})
 * @param maxBatchedTokens token budget of one step (vLLM {@code max_num_batched_tokens}, SGLang
 *     {@code chunked_prefill_size})
 * @param chunkedPrefill a long prompt may be split over several steps
 * @param mixedBatches decodes and prefill chunks share a step (vLLM V1, TensorRT-LLM); otherwise
 *     prefill steps have priority and run alone (SGLang, vLLM V0)
 * @param kvCapacityTokens KV cache size; running out preempts the newest request (recompute)
 * @param blockSize KV cache block (page) size in tokens
 * @param prefixCaching reuse the KV of {@code sharedPrefixTokens} common to every prompt
 */
public record ServerSettings(
    int maxBatch,
    int maxBatchedTokens,
    boolean chunkedPrefill,
    boolean mixedBatches,
    double stepBaseMs,
    double stepPerSeqMs,
    double stepPerKvKtokenMs,
    double prefillPerTokenMs,
    double stepJitter,
    int kvCapacityTokens,
    int blockSize,
    boolean prefixCaching,
    int sharedPrefixTokens) {
  public ServerSettings {
    Checks.positive("maxBatch", maxBatch);
    Checks.positive("maxBatchedTokens", maxBatchedTokens);
    Checks.check(stepBaseMs > 0, "stepBaseMs must be > 0: " + stepBaseMs);
    Checks.nonNegative("stepPerSeqMs", stepPerSeqMs);
    Checks.nonNegative("stepPerKvKtokenMs", stepPerKvKtokenMs);
    Checks.nonNegative("prefillPerTokenMs", prefillPerTokenMs);
    Checks.check(stepJitter >= 0 && stepJitter < 1, "stepJitter must be in [0, 1): " + stepJitter);
    Checks.positive("kvCapacityTokens", kvCapacityTokens);
    Checks.positive("blockSize", blockSize);
    Checks.nonNegative("sharedPrefixTokens", sharedPrefixTokens);
  }
}
