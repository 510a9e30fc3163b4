package dev.tokentrace.loadgen;

/**
 * Which request goes next: {@code warmup} warm-up requests first (always sent, marked), then
 * measured ones until {@code requests} were issued or {@code duration} passed since the run
 * started, whichever comes first. Indexes are 0-based and dense, warm-up included, so request IDs
 * are prefix + index. Thread-safe.
 */
final class Plan {
  /** No limit on the measured requests (a duration-only run). */
  static final long UNLIMITED = Long.MAX_VALUE;

  private final int warmup;
  private final long total;
  private final long durationNanos;
  private long next;
  private boolean stopped;

  /**
   * @param requests measured requests, or {@link #UNLIMITED}
   * @param durationNanos how long to keep issuing measured requests, or {@code Long.MAX_VALUE}
   */
  Plan(int warmup, long requests, long durationNanos) {
    if (warmup < 0) {
      throw new IllegalArgumentException("--warmup must be >= 0: " + warmup);
    }
    if (requests < 0) {
      throw new IllegalArgumentException("--requests must be >= 0: " + requests);
    }
    if (requests == UNLIMITED && durationNanos == Long.MAX_VALUE) {
      throw new IllegalArgumentException("give --requests or --duration (or both)");
    }
    this.warmup = warmup;
    this.total = requests == UNLIMITED ? UNLIMITED : warmup + requests;
    this.durationNanos = durationNanos;
  }

  /** The next index to issue, {@code elapsedNanos} after the start; -1 when the run is over. */
  synchronized long next(long elapsedNanos) {
    if (stopped || next >= total) {
      return -1;
    }
    if (next >= warmup && elapsedNanos >= durationNanos) {
      stopped = true;
      return -1;
    }
    return next++;
  }

  boolean warmup(long index) {
    return index < warmup;
  }

  /** Issues nothing more (the server is unreachable, or the user stopped the run). */
  synchronized void stop() {
    stopped = true;
  }
}
