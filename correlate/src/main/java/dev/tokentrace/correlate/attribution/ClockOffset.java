package dev.tokentrace.correlate.attribution;

import org.jspecify.annotations.Nullable;

/**
 * One clock offset estimate: a row of {@code sql/queries/clock_offsets.sql} (definitions in {@code
 * sql/attribution/clock_offsets.sql}). {@code offsetMs} is server minus client: add it to a client
 * time to put it on the server's clock. The table's method columns (id_pairs or time_series,
 * schema/005_attribution) are not components yet: the listing query does not select them, and a
 * component without a column fails the mapping at run time (jspecify's {@code @Nullable} is not on
 * the runtime class path, so Jdbi cannot see it).
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
    @Nullable String hint) {}
