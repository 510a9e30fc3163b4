package dev.tokentrace.exporter;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A DuckDB analysis file opened READ_ONLY for each poll and closed after it ({@link
 * Database#openReadOnly}): between polls the exporter holds no lock. While a writer (a sink, {@code
 * ingest --follow}, {@code correlate}) holds the file, DuckDB refuses the read and the poll fails
 * with its message; the exporter says so and keeps serving the last values
 * (docs/live.md#reading-a-duckdb-file).
 */
public final class DuckDbFileStore implements StoreReader {
  private final DatabaseSettings settings;

  public DuckDbFileStore(DatabaseSettings settings) {
    this.settings = requireNonNull(settings, "settings is null");
    requireNonNull(settings.file(), "the exporter reads a file, not an in-memory database");
  }

  @Override
  public Session open() {
    Database database = Database.openReadOnly(settings);
    Connection connection;
    try {
      connection = database.newConnection();
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    return new Session() {
      @Override
      public Connection connection() {
        return connection;
      }

      @Override
      public void close() throws SQLException {
        try {
          connection.close();
        } finally {
          database.close();
        }
      }
    };
  }

  @Override
  public String describe() {
    return String.valueOf(settings.file());
  }
}
