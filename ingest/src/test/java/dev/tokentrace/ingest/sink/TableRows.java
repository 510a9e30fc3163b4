package dev.tokentrace.ingest.sink;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.ColumnType;
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
    for (EventTable<?> table : EventTables.ALL) {
      events.addAll(events(connection, table));
    }
    return events;
  }

  static List<EngineEvent> events(Connection connection, EventTable<?> table) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT *, epoch_us(ts) AS \"ts:us\"");
    for (Column<?> column : table.ownColumns()) {
      if (column.type() == ColumnType.TIMESTAMP) {
        sql.append(", epoch_us(").append(column.name()).append(") AS \"");
        sql.append(column.name()).append(":us\"");
      }
    }
    sql.append(" FROM ").append(table.name());
    List<EngineEvent> events = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql.toString())) {
      while (row.next()) {
        events.add(table.create(new RowValues(table, row)));
      }
    }
    return events;
  }

  /** One result row, by column name. */
  private record RowValues(EventTable<?> table, ResultSet row) implements EventTable.Values {
    @Override
    public Engine engine() {
      return Engine.fromId(get("engine", String.class));
    }

    @Override
    public String instance() {
      return get("instance", String.class);
    }

    @Override
    public @Nullable Instant ts() {
      return instant("ts");
    }

    @Override
    public SourcePosition source() {
      return new SourcePosition(
          get("source_path", String.class),
          get("source_line", Long.class),
          get("source_offset", Long.class));
    }

    @Override
    public @Nullable String text(int column) {
      return get(name(column), String.class);
    }

    @Override
    public @Nullable Integer int32(int column) {
      return get(name(column), Integer.class);
    }

    @Override
    public @Nullable Long int64(int column) {
      return get(name(column), Long.class);
    }

    @Override
    public @Nullable Double float64(int column) {
      return get(name(column), Double.class);
    }

    @Override
    public boolean bool(int column) {
      return get(name(column), Boolean.class);
    }

    @Override
    public @Nullable Instant instant(int column) {
      return instant(name(column));
    }

    private String name(int column) {
      return table.ownColumns().get(column).name();
    }

    private @Nullable Instant instant(String column) {
      Long micros = get(column + ":us", Long.class);
      return micros == null ? null : Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    @SuppressWarnings("TypeParameterUnusedInFormals")
    private <T> T get(String column, Class<T> type) {
      try {
        return type.cast(row.getObject(column));
      } catch (SQLException e) {
        throw new IllegalStateException("reading " + table.name() + "." + column, e);
      }
    }
  }
}
