package dev.tokentrace.ingest.sink;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.Phase;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the event tables back into event records by column name (independently of the sink's
 * positional writing), so a test can compare them with the events it produced. Timestamps are read
 * as {@code epoch_us(...)}, so neither JDBC nor the JVM time zone interprets them.
 */
final class TableRows {
  private TableRows() {}

  static List<EngineEvent> events(Connection connection) throws SQLException {
    List<EngineEvent> events = new ArrayList<>();
    for (SinkTable table : SinkTable.values()) {
      if (table.isEventTable()) {
        events.addAll(events(connection, table));
      }
    }
    return events;
  }

  static List<EngineEvent> events(Connection connection, SinkTable table) throws SQLException {
    String sql =
        "SELECT *, epoch_us(ts) AS ts_us"
            + (table == SinkTable.REQUEST_TIMING ? ", epoch_us(arrival_ts) AS arrival_us" : "")
            + " FROM "
            + table.table();
    List<EngineEvent> events = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      while (row.next()) {
        events.add(event(table, row));
      }
    }
    return events;
  }

  private static EngineEvent event(SinkTable table, ResultSet row) throws SQLException {
    Engine engine = Engine.fromId(row.getString("engine"));
    String instance = row.getString("instance");
    Instant ts = instant(row, "ts_us");
    SourcePosition source =
        new SourcePosition(
            row.getString("source_path"), row.getLong("source_line"), row.getLong("source_offset"));
    switch (table) {
      case REQUEST_ARRIVED:
        return new RequestArrived(
            engine,
            instance,
            ts,
            source,
            text(row, "request_id"),
            text(row, "request_key"),
            int32(row, "prompt_tokens"),
            int32(row, "max_tokens"));
      case REQUEST_TIMING:
        return new RequestTiming(
            engine,
            instance,
            ts,
            source,
            text(row, "request_id"),
            text(row, "request_key"),
            instant(row, "arrival_us"),
            float64(row, "queue_ms"),
            float64(row, "prefill_ms"),
            float64(row, "decode_ms"),
            float64(row, "server_ttft_ms"),
            float64(row, "e2e_ms"),
            int32(row, "prompt_tokens"),
            int32(row, "output_tokens"),
            int32(row, "cached_tokens"),
            row.getString("finish_reason"),
            text(row, "source_kind"));
      case REQUEST_FINISHED:
        return new RequestFinished(
            engine,
            instance,
            ts,
            source,
            text(row, "request_id"),
            text(row, "request_key"),
            int32(row, "output_tokens"),
            row.getString("finish_reason"));
      case REQUEST_ABORTED:
        return new RequestAborted(
            engine,
            instance,
            ts,
            source,
            text(row, "request_id"),
            text(row, "request_key"),
            row.getString("reason"));
      case ENGINE_STATS:
        return new EngineStats(
            engine,
            instance,
            ts,
            source,
            row.getString("rank"),
            float64(row, "interval_s"),
            float64(row, "prompt_tps"),
            float64(row, "gen_tps"),
            int32(row, "running"),
            int32(row, "waiting"),
            int32(row, "swapped"),
            float64(row, "kv_usage_pct"),
            float64(row, "prefix_hit_pct"),
            int32(row, "preemptions"));
      case BATCH_STEP:
        return new BatchStep(
            engine,
            instance,
            ts,
            source,
            row.getString("rank"),
            int64(row, "iteration"),
            Phase.fromId(text(row, "phase")),
            int32(row, "batch_size"),
            int32(row, "new_seqs"),
            int32(row, "new_tokens"),
            int32(row, "cached_tokens"),
            int32(row, "queued"),
            float64(row, "token_usage"),
            float64(row, "throughput_tps"),
            float64(row, "step_ms"),
            row.getBoolean("step_ms_derived"),
            int32(row, "ctx_requests"),
            int32(row, "gen_requests"));
      case SERVER_NOTICE:
        return new ServerNotice(
            engine,
            instance,
            ts,
            source,
            text(row, "level"),
            ServerNotice.Kind.fromId(text(row, "kind")),
            text(row, "message"));
      default:
        throw new IllegalStateException("not an event table: " + table);
    }
  }

  private static String text(ResultSet row, String column) throws SQLException {
    String value = row.getString(column);
    if (value == null) {
      throw new IllegalStateException(column + " is NULL");
    }
    return value;
  }

  private static @Nullable Integer int32(ResultSet row, String column) throws SQLException {
    Object value = row.getObject(column);
    return value == null ? null : (Integer) value;
  }

  private static @Nullable Long int64(ResultSet row, String column) throws SQLException {
    Object value = row.getObject(column);
    return value == null ? null : (Long) value;
  }

  private static @Nullable Double float64(ResultSet row, String column) throws SQLException {
    Object value = row.getObject(column);
    return value == null ? null : (Double) value;
  }

  private static @Nullable Instant instant(ResultSet row, String column) throws SQLException {
    Object value = row.getObject(column);
    return value == null
        ? null
        : Instant.EPOCH.plus(((Number) value).longValue(), ChronoUnit.MICROS);
  }
}
