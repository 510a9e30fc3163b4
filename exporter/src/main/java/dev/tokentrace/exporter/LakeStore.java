package dev.tokentrace.exporter;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.DuckDbFiles;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeMarker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The lake read through its reader API ({@link Lake#openReader}, {@link Lake#attachViews}): the
 * event tables and rejects as views over the committed files as of each poll, readable while sinks
 * write and compaction runs, and {@code request_attribution} as the version {@code correlate
 * --lake} committed last (docs/storage.md#versioned-tables). With the optional {@code attribution}
 * file, {@code request_attribution} and {@code client_timing} come from that DuckDB file instead,
 * attached READ_ONLY for the poll and detached after it (docs/live.md#reading-a-lake).
 */
public final class LakeStore implements StoreReader, AutoCloseable {
  /** Tables read from the DuckDB file beside the lake. */
  static final List<String> FILE_TABLES = List.of("request_attribution", "client_timing");

  private final Path lake;
  private final @Nullable Path attribution;
  private final DatabaseSettings limits;
  private @Nullable Database reader;

  /**
   * Opens the lake's reader now when the lake exists; when it does not exist yet (no directory, or
   * no marker: the sinks have not created it), each {@link #open()} fails saying so until it
   * appears, and the exporter serves {@code tokentrace_exporter_store_up 0} meanwhile
   * (docs/live.md#start-order).
   *
   * @param attribution the DuckDB file {@code correlate} writes, or null for the lake's own
   *     attribution
   * @throws IllegalArgumentException naming the directory when it is something else than a
   *     tokentrace lake (a marker of another format or version)
   */
  public LakeStore(Path lake, @Nullable Path attribution, DatabaseSettings limits) {
    this.lake = requireNonNull(lake, "lake is null");
    this.attribution = attribution;
    this.limits = requireNonNull(limits, "limits is null");
    if (exists()) {
      reader = openReader();
    }
  }

  /** True when the lake's marker exists: a sink created the lake. */
  public boolean exists() {
    return Files.isRegularFile(lake.resolve(LakeMarker.FILE));
  }

  private Database openReader() {
    Database database = Lake.openReader(lake, limits);
    if (attribution != null) {
      // the reader's own (empty) tables of these names give way to views of the attached file
      try (Connection connection = database.newConnection();
          Statement statement = connection.createStatement()) {
        for (String table : FILE_TABLES) {
          // the lake's tables (events, streamed client_timing, the versioned request_attribution)
          // are views already; only a plain table of the reader's schema gives way
          boolean baseTable;
          try (var rows =
              statement.executeQuery(
                  "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'main'"
                      + " AND table_type = 'BASE TABLE' AND table_name = '"
                      + table
                      + "'")) {
            baseTable = rows.next() && rows.getLong(1) > 0;
          }
          if (baseTable) {
            statement.execute("DROP TABLE " + table);
          }
        }
      } catch (SQLException e) {
        database.close();
        throw new IllegalStateException("lake " + lake + ": " + e.getMessage(), e);
      }
    }
    return database;
  }

  private synchronized Database reader() {
    if (reader == null) {
      if (!exists()) {
        throw new IllegalStateException(
            "no lake yet (no "
                + LakeMarker.FILE
                + "): waiting for a sink to create it; serving tokentrace_exporter_store_up 0");
      }
      reader = openReader();
    }
    return reader;
  }

  @Override
  public Session open() throws SQLException {
    Connection connection = reader().newConnection();
    try (Statement statement = connection.createStatement()) {
      Lake.attachViews(connection, lake);
      if (attribution != null) {
        DuckDbFiles.requireExisting(attribution);
        statement.execute(
            "ATTACH '"
                + attribution.toAbsolutePath().toString().replace("'", "''")
                + "' AS attribution (READ_ONLY)");
        for (String table : FILE_TABLES) {
          statement.execute(
              "CREATE OR REPLACE VIEW main." + table + " AS SELECT * FROM attribution." + table);
        }
      }
    } catch (SQLException | RuntimeException e) {
      connection.close();
      throw e;
    }
    return new Session() {
      @Override
      public Connection connection() {
        return connection;
      }

      @Override
      public void close() throws SQLException {
        try (Statement statement = connection.createStatement()) {
          if (attribution != null) {
            statement.execute("DETACH DATABASE IF EXISTS attribution");
          }
        } finally {
          connection.close();
        }
      }
    };
  }

  @Override
  public String describe() {
    return "lake " + lake + (attribution == null ? "" : " with attribution from " + attribution);
  }

  @Override
  public synchronized void close() {
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
