package dev.tokentrace.report.model;

import org.jspecify.annotations.Nullable;

/**
 * One clock offset estimate: a row of {@code sql/queries/clock_offsets.sql}. {@code offsetMs} is
 * server minus client; {@code method} is id_pairs or time_series (then {@code fitMs}, {@code
 * runnerUpFitMs}, {@code clientRequests} and {@code serverRequests} describe the fit).
 */
public record ClockEstimate(
    String runId,
    String instance,
    @Nullable String engine,
    String method,
    String clientClock,
    @Nullable String serverClock,
    String serverSource,
    int pairs,
    int usedPairs,
    int outliers,
    double offsetMs,
    double spreadMs,
    double minMs,
    double maxMs,
    @Nullable Integer zoneShiftMinutes,
    @Nullable Integer clientRequests,
    @Nullable Integer serverRequests,
    @Nullable Double fitMs,
    @Nullable Double runnerUpFitMs,
    @Nullable String flag,
    @Nullable String hint) {
  /** Whether the offset comes from lining up time series (no ID pairs). */
  public boolean timeSeries() {
    return "time_series".equals(method);
  }
}
