package dev.tokentrace.ingest.sink;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTables;
import java.sql.SQLException;
import org.duckdb.DuckDBConnection;

/**
 * Writes events straight into the event tables with the sink's own row layout, without Kafka: for
 * tests and tools that load parsed events fast. The caller owns the connection and its transaction.
 */
public final class EventTableWriter {
  private EventTableWriter() {}

  /** Appends every event to its table and flushes the Appenders before returning. */
  public static void insert(DuckDBConnection connection, Iterable<? extends EngineEvent> events)
      throws SQLException {
    try (Appenders appenders = new Appenders(connection)) {
      for (EngineEvent event : events) {
        appenders.append(EventTables.of(event), event);
      }
    }
  }
}
