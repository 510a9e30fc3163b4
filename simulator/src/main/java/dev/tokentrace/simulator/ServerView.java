package dev.tokentrace.simulator;

/** The server's state at the moment of an observer callback, plus counters since the start. */
public interface ServerView {
  long nowUs();

  /** Requests in the running set (prefilling or decoding). */
  int running();

  /** Running requests past their prefill. */
  int decoding();

  /** Requests waiting in the scheduler queue (preempted ones included). */
  int waiting();

  long kvUsedTokens();

  long kvUsedBlocks();

  long kvCapacityBlocks();

  /** KV blocks allocated since the start (never decreases). */
  long kvBlocksAllocated();

  int blockSize();

  /** Prompt tokens computed (prefix-cache hits excluded, recomputation included). */
  long promptTokensComputed();

  /** Prompt tokens of admitted requests, cached ones included. */
  long promptTokensAdmitted();

  /** Prompt tokens served from the prefix cache. */
  long promptTokensCached();

  long generationTokens();

  long preemptions();

  long arrivals();

  long finishedRequests();

  long steps();
}
