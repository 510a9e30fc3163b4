package dev.tokentrace.simulator;

import static java.util.Objects.requireNonNull;

/**
 * Benchmark-client behaviour.
 *
 * @param timeoutS the client gives up on an attempt this long after sending it (0 = never); the
 *     server notices the disconnect one uplink delay later and aborts the request
 * @param retries attempts after the first one for a timed-out request; a retry reuses the request's
 *     ID, so the server sees it twice
 * @param retryBackoffMs pause before a retry
 * @param heartbeatS a proxy sends an SSE comment every this many seconds while a response has not
 *     started (0 = none)
 * @param countsHeartbeats the client counts heartbeats as tokens: its TTFT becomes the first
 *     heartbeat's arrival and its output token count includes the heartbeats
 * @param ids how requests are named
 * @param idPrefix prefix of {@link IdScheme#PREFIX_INDEX} IDs; empty = {@code bench-<8 hex>-} per
 *     phase, derived from the seed, like separate {@code vllm bench serve} runs
 * @param recordTokenTimes keep every token's arrival time while a request is in flight, for client
 *     files with per-chunk times ({@link RequestView#clientTokenTimesUs()})
 */
public record ClientSettings(
    double timeoutS,
    int retries,
    double retryBackoffMs,
    double heartbeatS,
    boolean countsHeartbeats,
    IdScheme ids,
    String idPrefix,
    boolean recordTokenTimes) {
  public ClientSettings {
    requireNonNull(ids, "ids is null");
    requireNonNull(idPrefix, "idPrefix is null");
    Checks.nonNegative("timeoutS", timeoutS);
    Checks.nonNegative("retries", retries);
    Checks.check(retries == 0 || timeoutS > 0, "retries need a timeout (timeoutS > 0)");
    Checks.nonNegative("retryBackoffMs", retryBackoffMs);
    Checks.nonNegative("heartbeatS", heartbeatS);
  }
}
