package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What the benchmark client sends.
 *
 * @param requests client requests per concurrency level (phase)
 * @param concurrency one phase per entry, run back to back: workers (closed loop) or client
 *     semaphore size (Poisson; 0 = unbounded)
 * @param arrival closed loop or Poisson
 * @param ratePerSecond Poisson arrival rate (ignored for closed loop)
 * @param warmupRequests the first N requests of the run, which pay {@code warmupExtraMs}
 * @param warmupExtraMs extra duration of each engine step that starts a warm-up request's prefill
 * @param promptTokens prompt length distribution
 * @param outputTokens output length distribution (the request stops at exactly this many tokens)
 * @param maxModelLen prompt plus output never exceed this
 * @param phaseGapS idle seconds between phases
 */
public record WorkloadSettings(
    int requests,
    List<Integer> concurrency,
    ArrivalMode arrival,
    double ratePerSecond,
    int warmupRequests,
    double warmupExtraMs,
    Distribution promptTokens,
    Distribution outputTokens,
    int maxModelLen,
    double phaseGapS) {
  public WorkloadSettings {
    requireNonNull(concurrency, "concurrency is null");
    requireNonNull(arrival, "arrival is null");
    requireNonNull(promptTokens, "promptTokens is null");
    requireNonNull(outputTokens, "outputTokens is null");
    concurrency = List.copyOf(concurrency);
    Checks.positive("requests", requests);
    Checks.check(!concurrency.isEmpty(), "concurrency is empty");
    for (int level : concurrency) {
      Checks.check(
          level > 0 || (level == 0 && arrival == ArrivalMode.POISSON),
          "concurrency must be > 0 (0 = unbounded only with poisson arrivals): " + level);
    }
    Checks.check(
        arrival != ArrivalMode.POISSON || ratePerSecond > 0,
        "ratePerSecond must be > 0 for poisson arrivals: " + ratePerSecond);
    Checks.nonNegative("warmupRequests", warmupRequests);
    Checks.nonNegative("warmupExtraMs", warmupExtraMs);
    Checks.check(maxModelLen >= 2, "maxModelLen must be >= 2: " + maxModelLen);
    Checks.nonNegative("phaseGapS", phaseGapS);
  }
}
