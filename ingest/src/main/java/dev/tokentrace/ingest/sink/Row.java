package dev.tokentrace.ingest.sink;

import java.sql.SQLException;
import java.time.Instant;
import org.duckdb.DuckDBAppender;
import org.jspecify.annotations.Nullable;

/**
 * One Appender row, written column by column with Java types that match the DuckDB column types
 * exactly (the Appender rejects an {@code int} for a {@code BIGINT}); nullable values become NULL.
 * Instants become {@code TIMESTAMP} (UTC) as epoch microseconds, so neither the JVM's nor DuckDB's
 * time zone takes part.
 */
final class Row {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final long NANOS_PER_MICRO = 1_000L;

  private final DuckDBAppender appender;

  Row(DuckDBAppender appender) {
    this.appender = appender;
  }

  Row begin() throws SQLException {
    appender.beginRow();
    return this;
  }

  void end() throws SQLException {
    appender.endRow();
  }

  Row text(@Nullable String value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.append(value);
    }
    return this;
  }

  Row int32(@Nullable Integer value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.append(value.intValue());
    }
    return this;
  }

  Row int64(@Nullable Long value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.append(value.longValue());
    }
    return this;
  }

  Row float64(@Nullable Double value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.append(value.doubleValue());
    }
    return this;
  }

  Row bool(boolean value) throws SQLException {
    appender.append(value);
    return this;
  }

  Row timestamp(@Nullable Instant value) throws SQLException {
    if (value == null) {
      appender.appendNull();
    } else {
      appender.appendEpochMicros(epochMicros(value));
    }
    return this;
  }

  static long epochMicros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), MICROS_PER_SECOND),
        instant.getNano() / NANOS_PER_MICRO);
  }
}
