package dev.tokentrace.loadgen;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One request as the client saw it. Nanosecond fields are {@link System#nanoTime()} readings
 * (durations only); {@code issued} is the wall clock when the client issued it. {@code -1} marks a
 * moment that never came.
 *
 * @param issuedNanos when the client decided to send it (scheduled arrival, or a worker got it)
 * @param sentNanos when it was handed to the HTTP client (after the client's own queue)
 * @param endNanos when the client was done with it (stream ended or failed)
 * @param httpStatus 0 when no response came
 * @param status {@code ok}, {@code http <code>} or {@code error: <reason>}
 */
record Outcome(
    String requestId,
    boolean warmup,
    Instant issued,
    long issuedNanos,
    long sentNanos,
    long firstTokenNanos,
    long lastTokenNanos,
    long endNanos,
    @Nullable Integer outputTokens,
    double[] itlsMs,
    int httpStatus,
    String status) {
  static final String OK = "ok";

  Outcome {
    requireNonNull(requestId, "requestId is null");
    requireNonNull(issued, "issued is null");
    requireNonNull(itlsMs, "itlsMs is null");
    requireNonNull(status, "status is null");
    itlsMs = itlsMs.clone();
  }

  boolean ok() {
    return OK.equals(status);
  }

  /** First token − issued, ms; null without a token. */
  @Nullable Double ttftMs() {
    return firstTokenNanos < 0 ? null : (firstTokenNanos - issuedNanos) / 1e6;
  }

  /** Last token − issued, ms (request sent → last token, the seed's total); else the end. */
  double e2eMs() {
    long end = lastTokenNanos >= 0 && ok() ? lastTokenNanos : endNanos;
    return (end - issuedNanos) / 1e6;
  }

  double clientQueueMs() {
    return sentNanos < 0 ? 0 : (sentNanos - issuedNanos) / 1e6;
  }
}
