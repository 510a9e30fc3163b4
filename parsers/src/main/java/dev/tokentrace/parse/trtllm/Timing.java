package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import org.jspecify.annotations.Nullable;

/**
 * The four lifecycle times of one request on one server, in steady-clock seconds (C++ {@code
 * TimingMetrics}, docs/formats/trtllm.md#perf-metrics), and the durations between them in
 * milliseconds.
 */
record Timing(
    @Nullable Double arrival,
    @Nullable Double firstScheduled,
    @Nullable Double firstToken,
    @Nullable Double lastToken) {

  private static final Timing EMPTY = new Timing(null, null, null, null);

  /** Reads {@code arrival_time, first_scheduled_time, first_token_time, last_token_time}. */
  static Timing of(@Nullable JsonNode metrics) {
    if (metrics == null) {
      return EMPTY;
    }
    return new Timing(
        time(metrics, "arrival_time"),
        time(metrics, "first_scheduled_time"),
        time(metrics, "first_token_time"),
        time(metrics, "last_token_time"));
  }

  /** A steady-clock time in seconds; ≤ 0 is an unset C++ time point and reads as absent. */
  static @Nullable Double time(JsonNode metrics, String key) {
    Double value = JsonFields.number(metrics, key);
    return value == null || value <= 0 ? null : value;
  }

  /**
   * {@code to − from} in milliseconds, rounded to the nanosecond so that float noise of the seconds
   * ({@code 812.006 − 812.003}) does not reach the output; null when either is missing.
   */
  static @Nullable Double ms(@Nullable Double from, @Nullable Double to) {
    if (from == null || to == null) {
      return null;
    }
    double ms = (to - from) * 1000;
    if (!Double.isFinite(ms)) {
      return null;
    }
    return Math.abs(ms) < 1e12 ? Math.round(ms * 1e6) / 1e6 : ms;
  }

  boolean isEmpty() {
    return arrival == null && firstScheduled == null && firstToken == null && lastToken == null;
  }

  boolean hasDuration() {
    return queueMs() != null
        || prefillMs() != null
        || decodeMs() != null
        || ttftMs() != null
        || e2eMs() != null;
  }

  @Nullable Double queueMs() {
    return ms(arrival, firstScheduled);
  }

  @Nullable Double prefillMs() {
    return ms(firstScheduled, firstToken);
  }

  @Nullable Double decodeMs() {
    return ms(firstToken, lastToken);
  }

  @Nullable Double ttftMs() {
    return ms(arrival, firstToken);
  }

  @Nullable Double e2eMs() {
    return ms(arrival, lastToken);
  }
}
