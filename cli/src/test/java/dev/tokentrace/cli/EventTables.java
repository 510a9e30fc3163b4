package dev.tokentrace.cli;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.sink.EventTableWriter;
import dev.tokentrace.store.Database;
import java.sql.SQLException;
import java.util.List;
import org.duckdb.DuckDBConnection;

/**
 * Writes parsed events into the event tables without Kafka, through the DuckDB sink's own row
 * layout, for tests that need server data fast: the events come from the real parsers, only the
 * transport is skipped (DemoIT covers it).
 */
final class EventTables {
  private EventTables() {}

  static void insert(Database database, List<EngineEvent> events) {
    try (DuckDBConnection connection = database.newConnection()) {
      EventTableWriter.insert(connection, events);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot append events", e);
    }
  }
}
