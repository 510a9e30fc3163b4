package dev.tokentrace.correlate.attribution;

import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.rows.ClockOffset;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.StatementContext;
import org.jspecify.annotations.Nullable;

/**
 * Adds the {@code time_series} rows of {@code clock_offsets}: reads the client sends and
 * steady-clock server arrivals that no ID pairs ({@code attribution/steady_clock_series}), links
 * runs to instances ({@link SteadyClockLinks}) and appends one row per link, on the caller's
 * transaction. A search over candidate offsets rather than a formula, so it is Java, not SQL; its
 * inputs and its output are tables. Memory: three doubles per request of the series read.
 */
final class SteadyClockOffsets {
  static final String METHOD = ClockOffset.TIME_SERIES;

  private SteadyClockOffsets() {}

  /**
   * Appends the links to {@code clock_offsets} (the handle's transaction must have run a statement
   * already, so that the Appender joins it; docs/design.md#appender-and-transactions) and returns
   * them.
   */
  static List<SteadyClockLinks.Link> estimate(Handle handle, AttributionSettings settings)
      throws SQLException {
    Map<SteadyClockLinks.Run, SeriesBuilder> runs = new LinkedHashMap<>();
    Map<String, SeriesBuilder> instances = new LinkedHashMap<>();
    handle
        .createQuery(SqlCatalog.get(Queries.STEADY_CLOCK_SERIES))
        .map(SteadyClockOffsets::row)
        .forEach(
            row -> {
              SeriesBuilder series =
                  row.run() != null
                      ? runs.computeIfAbsent(row.run(), run -> new SeriesBuilder(null))
                      : instances.computeIfAbsent(
                          row.series(), name -> new SeriesBuilder(row.engine()));
              series.add(row.atMs(), row.ttftMs(), row.e2eMs());
            });
    if (runs.isEmpty() || instances.isEmpty()) {
      return List.of();
    }
    Map<SteadyClockLinks.Run, TimeSeries> runSeries = new LinkedHashMap<>();
    runs.forEach((run, builder) -> runSeries.put(run, builder.build()));
    List<SteadyClockLinks.Instance> instanceSeries = new ArrayList<>();
    instances.forEach(
        (name, builder) ->
            instanceSeries.add(
                new SteadyClockLinks.Instance(name, builder.engine, builder.build())));
    List<SteadyClockLinks.Link> links =
        SteadyClockLinks.link(
            runSeries, instanceSeries, new SteadyClockAligner(settings.negativeToleranceMs()));
    append(handle, links);
    return links;
  }

  /** One row of the series query; {@code run} is null for a server row. */
  private record SeriesRow(
      SteadyClockLinks.@Nullable Run run,
      String series,
      @Nullable String engine,
      double atMs,
      double ttftMs,
      double e2eMs) {}

  private static SeriesRow row(ResultSet row, StatementContext context) throws SQLException {
    String series = row.getString("series");
    SteadyClockLinks.Run run =
        "client".equals(row.getString("side"))
            ? new SteadyClockLinks.Run(series, row.getString("client_clock"))
            : null;
    return new SeriesRow(
        run,
        series,
        row.getString("engine"),
        row.getDouble("at_ms"),
        nanIfNull(row, "ttft_ms"),
        nanIfNull(row, "e2e_ms"));
  }

  private static double nanIfNull(ResultSet row, String column) throws SQLException {
    double value = row.getDouble(column);
    return row.wasNull() ? Double.NaN : value;
  }

  private static void append(Handle handle, List<SteadyClockLinks.Link> links) throws SQLException {
    DuckDBConnection connection = handle.getConnection().unwrap(DuckDBConnection.class);
    try (DuckDBAppender appender =
        connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "clock_offsets")) {
      for (SteadyClockLinks.Link link : links) {
        append(appender, link);
      }
    }
  }

  /** One row, in the column order of schema/005_attribution (the Appender is positional). */
  private static void append(DuckDBAppender appender, SteadyClockLinks.Link link)
      throws SQLException {
    SteadyClockAligner.Alignment alignment = link.alignment();
    appender.beginRow().append(link.run().runId()).append(link.instance().name());
    appendNullable(appender, link.instance().engine());
    appender
        .append(link.run().clientClock())
        .append("request_timing")
        .append(alignment.pairs())
        .append(alignment.usedPairs())
        .append(alignment.pairs() - alignment.usedPairs())
        .append(alignment.offsetMs())
        .append(alignment.spreadMs())
        .append(alignment.minMs())
        .append(alignment.maxMs())
        .appendNull(); // zone_shift_minutes: a steady clock has no zone
    appendNullable(appender, link.flag());
    appender
        .append(METHOD)
        .append("steady")
        .append(alignment.clientRequests())
        .append(alignment.serverRequests())
        .append(alignment.fitMs());
    if (link.runnerUpFitMs() == null) {
      appender.appendNull();
    } else {
      appender.append(link.runnerUpFitMs().doubleValue());
    }
    appender.endRow();
  }

  private static void appendNullable(DuckDBAppender appender, @Nullable String value)
      throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.append(value);
    }
  }

  /** Accumulates one series as the SQL returns it (in time order). Not thread-safe. */
  private static final class SeriesBuilder {
    private final @Nullable String engine;
    private double[] at = new double[64];
    private double[] ttft = new double[64];
    private double[] e2e = new double[64];
    private int size;

    SeriesBuilder(@Nullable String engine) {
      this.engine = engine;
    }

    void add(double atMs, double ttftMs, double e2eMs) {
      if (size == at.length) {
        at = Arrays.copyOf(at, size * 2);
        ttft = Arrays.copyOf(ttft, size * 2);
        e2e = Arrays.copyOf(e2e, size * 2);
      }
      at[size] = atMs;
      ttft[size] = ttftMs;
      e2e[size] = e2eMs;
      size++;
    }

    TimeSeries build() {
      return new TimeSeries(
          Arrays.copyOf(at, size), Arrays.copyOf(ttft, size), Arrays.copyOf(e2e, size));
    }
  }
}
