package dev.tokentrace.ingest.sink;

import dev.tokentrace.table.Column;
import dev.tokentrace.table.ColumnType;
import dev.tokentrace.table.TableSchema;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.duckdb.DuckDBAppender;
import org.jspecify.annotations.Nullable;

/**
 * Appends rows to one table, column by column as its {@link TableSchema} lists them, with the Java
 * type each DuckDB column type takes exactly (the Appender rejects an {@code int} for a {@code
 * BIGINT}); null values become NULL. Instants become {@code TIMESTAMP} (UTC) as epoch microseconds,
 * so neither the JVM's nor DuckDB's time zone takes part. The columns' accessors are plain lambdas:
 * no reflection per row.
 */
final class Row {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private final DuckDBAppender appender;

  Row(DuckDBAppender appender) {
    this.appender = appender;
  }

  /** Appends {@code row} as one row of {@code table}. */
  <R> void append(TableSchema<R> table, R row) throws SQLException {
    List<Column<? super R>> columns = table.columns();
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

  static long epochMicros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND),
        instant.getNano() / NANOS_PER_MICRO);
  }
}
