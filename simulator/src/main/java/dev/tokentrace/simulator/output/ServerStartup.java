package dev.tokentrace.simulator.output;

/**
 * Facts a server prints while starting.
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
    int maxBatch) {}
