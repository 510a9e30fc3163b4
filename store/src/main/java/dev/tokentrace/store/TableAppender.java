package dev.tokentrace.store;

import dev.tokentrace.table.Column;
import dev.tokentrace.table.ColumnType;
import dev.tokentrace.table.TableSchema;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;

/**
 * An Appender on one table, filled column by column as the table's descriptor lists them, with the
 * Java type each DuckDB column type takes exactly; nulls become NULL, instants UTC epoch
 * microseconds; the accessors are plain lambdas, no reflection per row. The one writer of Appender
 * rows: the sink's event and reject rows and the client loader's rows
 * (docs/storage.md#column-descriptors). Closing flushes: close it inside the transaction it belongs
 * to (docs/design.md#appender-and-transactions). Not thread-safe.
 */
public final class TableAppender implements AutoCloseable {
  private final DuckDBAppender appender;
  private final TableSchema<?> table;

  private TableAppender(DuckDBAppender appender, TableSchema<?> table) {
    this.appender = appender;
    this.table = table;
  }

  /** An Appender on {@code table} of the connection's transaction. */
  public static TableAppender open(DuckDBConnection connection, TableSchema<?> table)
      throws SQLException {
    return open(connection, DuckDBConnection.DEFAULT_SCHEMA, table);
  }

  /**
   * An Appender on {@code table} in the DuckDB schema {@code schema} (the lake writer stages each
   * Kafka partition's rows in a schema of its own, docs/storage.md#lake-commit-protocol).
   */
  public static TableAppender open(DuckDBConnection connection, String schema, TableSchema<?> table)
      throws SQLException {
    return new TableAppender(connection.createAppender(schema, table.name()), table);
  }

  /** Appends {@code row} as one row of {@code schema} (the table this Appender was opened on). */
  public <R> void append(TableSchema<R> schema, R row) throws SQLException {
    if (schema != table) {
      throw new IllegalArgumentException(
          "appender of " + table.name() + " given a row of " + schema.name());
    }
    List<Column<? super R>> columns = schema.columns();
    appender.beginRow();
    for (int i = 0, n = columns.size(); i < n; i++) {
      Column<? super R> column = columns.get(i);
      value(column.type(), column.get(row));
    }
    appender.endRow();
  }

  private void value(ColumnType type, @Nullable Object value) throws SQLException {
    if (value == null) {
      appender.appendNull();
      return;
    }
    switch (type) {
      case VARCHAR:
        appender.append((String) value);
        break;
      case INTEGER:
        appender.append(((Integer) value).intValue());
        break;
      case BIGINT:
        appender.append(((Long) value).longValue());
        break;
      case DOUBLE:
        appender.append(((Double) value).doubleValue());
        break;
      case BOOLEAN:
        appender.append(((Boolean) value).booleanValue());
        break;
      case TIMESTAMP:
        appender.appendEpochMicros(epochMicros((Instant) value));
        break;
      default:
        throw new IllegalStateException("unhandled column type " + type);
    }
  }

  /** UTC epoch microseconds, nanoseconds truncated: neither JVM nor DuckDB time zone takes part. */
  public static long epochMicros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000L);
  }

  @Override
  public void close() throws SQLException {
    appender.close();
  }
}
