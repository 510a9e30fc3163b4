package dev.tokentrace.correlate.attribution;

import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;
import org.jspecify.annotations.Nullable;

/**
 * One clock offset estimate: a row of {@code sql/queries/clock_offsets.sql} (definitions in {@code
 * sql/attribution/clock_offsets.sql} and schema/005_attribution). {@code offsetMs} is server minus
 * client: add it to a client time to put it on the server's clock. {@code method} id_pairs (wall
 * server clock, pairs joined by ID) or time_series (steady server clock aligned by the time series
 * alone, {@link SteadyClockAligner}: pairs are sends matched to an arrival, {@code fitMs} and
 * {@code runnerUpFitMs} say how clearly); the components from {@code method} on are null where the
 * query does not select them.
 */
public record ClockOffset(
    String runId,
    String instance,
    @Nullable String engine,
    String clientClock,
    String serverSource,
    int pairs,
    int usedPairs,
    int outliers,
    double offsetMs,
    double spreadMs,
    double minMs,
    double maxMs,
    @Nullable Integer zoneShiftMinutes,
    @Nullable String flag,
    @Nullable String hint,
    @Nullable String method,
    @Nullable String serverClock,
    @Nullable Integer clientRequests,
    @Nullable Integer serverRequests,
    @Nullable Double fitMs,
    @Nullable Double runnerUpFitMs) {

  @JdbiConstructor
  public ClockOffset {}

  /** An estimate without the method columns (null), as before they existed. */
  public ClockOffset(
      String runId,
      String instance,
      @Nullable String engine,
      String clientClock,
      String serverSource,
      int pairs,
      int usedPairs,
      int outliers,
      double offsetMs,
      double spreadMs,
      double minMs,
      double maxMs,
      @Nullable Integer zoneShiftMinutes,
      @Nullable String flag,
      @Nullable String hint) {
    this(
        runId,
        instance,
        engine,
        clientClock,
        serverSource,
        pairs,
        usedPairs,
        outliers,
        offsetMs,
        spreadMs,
        minMs,
        maxMs,
        zoneShiftMinutes,
        flag,
        hint,
        null,
        null,
        null,
        null,
        null,
        null);
  }
}
