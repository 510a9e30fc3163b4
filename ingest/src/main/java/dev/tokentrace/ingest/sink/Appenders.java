package dev.tokentrace.ingest.sink;

import dev.tokentrace.store.TableAppender;
import dev.tokentrace.table.TableSchema;
import java.sql.SQLException;
import java.util.IdentityHashMap;
import java.util.Map;
import org.duckdb.DuckDBConnection;

/**
 * The Appenders of one batch, created on first use per table on the sink's own connection (a {@code
 * duplicate()} would have its own transaction). {@link #close()} flushes them all; it must run
 * before the transaction ends: an Appender closed after commit or rollback flushes its rows in
 * auto-commit, outside the batch (docs/design.md#appender-and-transactions). Not thread-safe.
 */
final class Appenders implements AutoCloseable, RowAppender {
  private final DuckDBConnection connection;
  private final Map<TableSchema<?>, TableAppender> open = new IdentityHashMap<>();

  Appenders(DuckDBConnection connection) {
    this.connection = connection;
  }

  /** Appends {@code row} to {@code table} (its Appender opened on first use in this batch). */
  @Override
  public <R> void append(TableSchema<R> table, R row) throws SQLException {
    TableAppender appender = open.get(table);
    if (appender == null) {
      appender = TableAppender.open(connection, table);
      open.put(table, appender);
    }
    appender.append(table, row);
  }

  /** Flushes and closes every Appender; the first failure is thrown, later ones suppressed. */
  @Override
  public void close() throws SQLException {
    SQLException failure = null;
    for (Map.Entry<TableSchema<?>, TableAppender> entry : open.entrySet()) {
      try {
        entry.getValue().close();
      } catch (SQLException e) {
        SQLException named =
            new SQLException("appending to " + entry.getKey().name() + " failed", e);
        if (failure == null) {
          failure = named;
        } else {
          failure.addSuppressed(named);
        }
      }
    }
    open.clear();
    if (failure != null) {
      throw failure;
    }
  }
}
