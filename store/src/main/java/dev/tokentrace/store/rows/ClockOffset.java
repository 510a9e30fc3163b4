package dev.tokentrace.store.rows;

import org.jspecify.annotations.Nullable;

/**
 * One clock offset estimate: a row of {@code sql/queries/clock_offsets.sql} (definitions in {@code
 * sql/attribution/clock_offsets.sql}). {@code offsetMs} is server minus client: add it to a client
 * time to put it on the server's clock. {@code method} is id_pairs (requests paired by ID) or
 * time_series (a steady server clock lined up with the client's sends; {@code fitMs}, {@code
 * runnerUpFitMs}, {@code clientRequests} and {@code serverRequests} describe that fit and are null
 * for id_pairs). Nullable columns are boxed: Jdbi maps SQL NULL to them (jspecify's {@code
 * Nullable} is not on the runtime class path).
 */
public record ClockOffset(
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

  /** {@code method} of an offset from lining up time series. */
  public static final String TIME_SERIES = "time_series";

  /** Whether the offset comes from lining up time series (no ID pairs). */
  public boolean timeSeries() {
    return TIME_SERIES.equals(method);
  }
}
