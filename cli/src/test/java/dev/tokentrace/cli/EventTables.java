package dev.tokentrace.cli;

import dev.tokentrace.correlate.db.Database;
import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerNotice;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;

/**
 * Writes parsed events into the event tables without Kafka, column for column as the DuckDB sink
 * does ({@code sql/schema/001_events.sql}), for tests that need server data fast: the events come
 * from the real parsers, only the transport is skipped (DemoIT covers it).
 */
final class EventTables {
  private final Map<String, DuckDBAppender> appenders = new HashMap<>();

  private EventTables() {}

  static void insert(Database database, List<EngineEvent> events) {
    try (DuckDBConnection connection = database.newConnection()) {
      EventTables tables = new EventTables();
      try {
        for (EngineEvent event : events) {
          tables.append(connection, event);
        }
      } finally {
        for (DuckDBAppender appender : tables.appenders.values()) {
          appender.close();
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot append events", e);
    }
  }

  private void append(DuckDBConnection connection, EngineEvent event) throws SQLException {
    if (event instanceof RequestArrived) {
      RequestArrived e = (RequestArrived) event;
      envelope(connection, "request_arrived", e).append(e.requestId()).append(e.requestKey());
      end(int32(int32(row("request_arrived"), e.promptTokens()), e.maxTokens()));
    } else if (event instanceof RequestTiming) {
      RequestTiming e = (RequestTiming) event;
      DuckDBAppender row =
          envelope(connection, "request_timing", e).append(e.requestId()).append(e.requestKey());
      timestamp(row, e.arrivalTs());
      for (Double value :
          new Double[] {e.queueMs(), e.prefillMs(), e.decodeMs(), e.serverTtftMs(), e.e2eMs()}) {
        float64(row, value);
      }
      int32(int32(int32(row, e.promptTokens()), e.outputTokens()), e.cachedTokens());
      end(text(text(row, e.finishReason()), e.sourceKind()));
    } else if (event instanceof RequestFinished) {
      RequestFinished e = (RequestFinished) event;
      DuckDBAppender row =
          envelope(connection, "request_finished", e).append(e.requestId()).append(e.requestKey());
      end(text(int32(row, e.outputTokens()), e.finishReason()));
    } else if (event instanceof RequestAborted) {
      RequestAborted e = (RequestAborted) event;
      DuckDBAppender row =
          envelope(connection, "request_aborted", e).append(e.requestId()).append(e.requestKey());
      end(text(row, e.reason()));
    } else if (event instanceof EngineStats) {
      stats(connection, (EngineStats) event);
    } else if (event instanceof BatchStep) {
      step(connection, (BatchStep) event);
    } else if (event instanceof ServerNotice) {
      ServerNotice e = (ServerNotice) event;
      end(
          envelope(connection, "server_notice", e)
              .append(e.level())
              .append(e.kind().id())
              .append(e.message()));
    } else {
      throw new IllegalStateException("unhandled event: " + event);
    }
  }

  private void stats(DuckDBConnection connection, EngineStats e) throws SQLException {
    DuckDBAppender row = text(envelope(connection, "engine_stats", e), e.rank());
    float64(float64(float64(row, e.intervalS()), e.promptTps()), e.genTps());
    int32(int32(int32(row, e.running()), e.waiting()), e.swapped());
    float64(float64(row, e.kvUsagePct()), e.prefixHitPct());
    end(int32(row, e.preemptions()));
  }

  private void step(DuckDBConnection connection, BatchStep e) throws SQLException {
    DuckDBAppender row = text(envelope(connection, "batch_step", e), e.rank());
    if (e.iteration() == null) {
      row.appendNull();
    } else {
      row.append(e.iteration().longValue());
    }
    row.append(e.phase().id());
    int32(
        int32(
            int32(int32(int32(row, e.batchSize()), e.newSeqs()), e.newTokens()), e.cachedTokens()),
        e.queued());
    float64(float64(float64(row, e.tokenUsage()), e.throughputTps()), e.stepMs());
    row.append(e.stepMsDerived());
    end(int32(int32(row, e.ctxRequests()), e.genRequests()));
  }

  private DuckDBAppender envelope(DuckDBConnection connection, String table, EngineEvent event)
      throws SQLException {
    DuckDBAppender row = appenders.get(table);
    if (row == null) {
      row = connection.createAppender(table);
      appenders.put(table, row);
    }
    row.beginRow().append(event.engine().id()).append(event.instance());
    timestamp(row, event.ts());
    return row.append(event.source().path())
        .append(event.source().line())
        .append(event.source().offset());
  }

  private DuckDBAppender row(String table) {
    return appenders.get(table);
  }

  private static void end(DuckDBAppender row) throws SQLException {
    row.endRow();
  }

  private static DuckDBAppender timestamp(DuckDBAppender row, @Nullable Instant value)
      throws SQLException {
    return value == null
        ? row.appendNull()
        : row.appendEpochMicros(value.getEpochSecond() * 1_000_000L + value.getNano() / 1_000);
  }

  private static DuckDBAppender text(DuckDBAppender row, @Nullable String value)
      throws SQLException {
    return value == null ? row.appendNull() : row.append(value);
  }

  private static DuckDBAppender int32(DuckDBAppender row, @Nullable Integer value)
      throws SQLException {
    return value == null ? row.appendNull() : row.append(value.intValue());
  }

  private static DuckDBAppender float64(DuckDBAppender row, @Nullable Double value)
      throws SQLException {
    return value == null ? row.appendNull() : row.append(value.doubleValue());
  }
}
