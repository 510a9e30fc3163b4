package dev.tokentrace.correlate.live;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeFile;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.store.lake.LakeTables;
import dev.tokentrace.table.TableSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lake's event tables and rejects, as one snapshot of its committed, non-overlapping files (the
 * reader API's {@link Lake#select}), copied into an analysis database's tables of the same names in
 * one transaction: those tables then hold exactly what a lake reader sees, and the attribution runs
 * on them as on any file (docs/live.md#live-attribution). The file's own rows of those tables are
 * replaced, and its streamed client rows by the lake's; client rows loaded by {@code clients},
 * attribution and bookkeeping stay.
 */
public final class LakeEvents {
  private static final String CLIENT_TIMING = "client_timing";
  private static final Logger log = LoggerFactory.getLogger(LakeEvents.class);

  private LakeEvents() {}

  /** The files a snapshot reads, per table: equal fingerprints read equal rows. */
  public static String fingerprint(LakeSnapshot snapshot) {
    Map<String, List<String>> files = new TreeMap<>();
    snapshot
        .selected()
        .forEach(
            (table, list) -> {
              List<String> names = new ArrayList<>();
              for (LakeFile file : list) {
                names.add(file.path().getFileName().toString());
              }
              names.sort(null);
              files.put(table, names);
            });
    return files.toString();
  }

  /**
   * Streamed client rows replace the file's streamed ones; the rows {@code clients} loaded (runs of
   * kind {@code clients}) stay, and lake rows of such a run are left out, and said so: a run is
   * either loaded or streamed (docs/live.md#streamed-client-rows).
   */
  private static long copyClientRows(Statement statement, String select, Path lake)
      throws SQLException {
    String loaded = "(SELECT run_id FROM runs WHERE kind = '" + ClientTimingLoader.RUN_KIND + "')";
    statement.execute("DELETE FROM " + CLIENT_TIMING + " WHERE run_id NOT IN " + loaded);
    long copied =
        statement.executeUpdate(
            "INSERT INTO "
                + CLIENT_TIMING
                + " BY NAME SELECT * FROM ("
                + select
                + ") WHERE run_id NOT IN "
                + loaded);
    try (ResultSet result =
        statement.executeQuery("SELECT count(*) FROM (" + select + ") WHERE run_id IN " + loaded)) {
      long skipped = result.next() ? result.getLong(1) : 0;
      if (skipped > 0) {
        log.warn(
            "lake {}: {} streamed client rows left out: their run ids are runs 'clients' loaded"
                + " into the file; stream with another --run",
            lake,
            skipped);
      }
    }
    return copied;
  }

  /** What one copy did. */
  public record Copied(int files, long rows, String fingerprint) {}

  /**
   * Replaces the event tables and rejects of {@code database} with the lake's current snapshot.
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   * @throws IllegalStateException naming the table when DuckDB fails (nothing changed then)
   */
  public static Copied copy(Path lake, Database database) {
    requireNonNull(lake, "lake is null");
    requireNonNull(database, "database is null");
    LakeSnapshot snapshot = LakeSnapshot.scan(lake);
    long rows = 0;
    String current = "";
    try (Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      try {
        for (TableSchema<?> table : LakeTables.ALL) {
          current = table.name();
          String select = Lake.select(table, snapshot.files(table.name()));
          if (table.name().equals(CLIENT_TIMING)) {
            rows += copyClientRows(statement, select, lake);
            continue;
          }
          statement.execute("DELETE FROM " + table.name());
          rows += statement.executeUpdate("INSERT INTO " + table.name() + " BY NAME " + select);
        }
        connection.commit();
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
      // DuckDB renumbers row ids when a checkpoint drops the deleted rows; the attribution's
      // inputs fingerprint counts rows and the last row id, so settle them now, or the next
      // round would see "new" inputs and attribute the same data again
      connection.setAutoCommit(true);
      current = "(checkpoint)";
      statement.execute("CHECKPOINT");
    } catch (SQLException e) {
      throw new IllegalStateException(
          "lake "
              + lake
              + ": cannot copy "
              + current
              + " into "
              + database.name()
              + ": "
              + e.getMessage(),
          e);
    }
    return new Copied(snapshot.fileCount(), rows, fingerprint(snapshot));
  }
}
