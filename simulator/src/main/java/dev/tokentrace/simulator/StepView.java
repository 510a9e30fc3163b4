package dev.tokentrace.simulator;

/**
 * One engine step (iteration): the batch it ran and how long it took. Reused between steps: read it
 * inside the callback only.
 */
public interface StepView {
  /** 0-based iteration counter. */
  long index();

  long startUs();

  long endUs();

  default long durationUs() {
    return endUs() - startUs();
  }

  /** Requests with a prefill (context) chunk in this step. */
  int contextRequests();

  /** Prompt tokens computed in this step (chunks, recomputation after preemption included). */
  int contextTokens();

  /** Requests decoding one token in this step. */
  int generationRequests();

  /** Requests scheduled for the first time in this step. */
  int newRequests();

  /** Sum of the server queue times of {@link #newRequests()}. */
  long newRequestsQueueUs();

  /**
   * Tokens already in the cache for this step's prefill requests: prefix-cache hits and earlier
   * chunks (SGLang {@code #cached-token}).
   */
  int cachedTokens();

  /** Requests preempted while this batch was formed. */
  int preempted();

  /** Requests finished at the end of this step (0 until then). */
  int finished();

  /** True when a warm-up request started its prefill in this step (the step paid extra). */
  boolean warmup();

  default int batchSize() {
    return contextRequests() + generationRequests();
  }
}
