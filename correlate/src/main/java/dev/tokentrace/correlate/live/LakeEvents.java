package dev.tokentrace.correlate.live;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeFile;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.store.lake.LakeTables;
import dev.tokentrace.table.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
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
   * either loaded or streamed (docs/live.md#streamed-client-rows). With {@code append}, {@code
   * select} reads only files not copied before, and the file's streamed rows stay.
   */
  private static long copyClientRows(Statement statement, String select, Path lake, boolean append)
      throws SQLException {
    String loaded = "(SELECT run_id FROM runs WHERE kind = '" + ClientTimingLoader.RUN_KIND + "')";
    if (!append) {
      statement.execute("DELETE FROM " + CLIENT_TIMING + " WHERE run_id NOT IN " + loaded);
    }
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

  /**
   * What one copy did: {@code files} of the snapshot, {@code rows} copied by this copy, whether it
   * only {@code appended} the files new since the previous copy; {@code copiedFiles} (per table)
   * and {@code tables} (rows and last row id of the file's lake tables right after the copy) let
   * the next copy tell whether it may append (docs/live.md#live-attribution).
   */
  public record Copied(
      int files,
      long rows,
      String fingerprint,
      boolean appended,
      int newFiles,
      Map<String, Set<String>> copiedFiles,
      String tables,
      List<String> skipped) {
    public Copied {
      skipped = List.copyOf(skipped);
    }
  }

  /**
   * Replaces the event tables and rejects of {@code database} with the lake's current snapshot.
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   * @throws IllegalStateException naming the table when DuckDB fails (nothing changed then)
   */
  public static Copied copy(Path lake, Database database) {
    return copy(lake, database, null);
  }

  /**
   * Brings the event tables and rejects of {@code database} to the lake's current snapshot: when
   * {@code previous} (this process's last copy into this file) still describes the file (its lake
   * tables hold the rows that copy left: same count and last row id) and every file it copied is
   * still in the snapshot (no compaction merged them away), only the rows of the snapshot's new
   * files are inserted; otherwise the tables are replaced as by {@link #copy(Path, Database)}. Both
   * leave the same rows: a snapshot's files never overlap, and a committed file never changes. When
   * the lake holds an attribution stored with exactly this snapshot ({@code spark-correlate}), it
   * becomes the database's current one ({@link LakeStoredResults#adopt}).
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   * @throws IllegalStateException naming the table when DuckDB fails (nothing changed then)
   */
  public static Copied copy(Path lake, Database database, @Nullable Copied previous) {
    requireNonNull(lake, "lake is null");
    requireNonNull(database, "database is null");
    LakeSnapshot snapshot = LakeSnapshot.scan(lake);
    Copied copied;
    try {
      copied = copy(lake, database, previous, snapshot, Map.of());
    } catch (IllegalStateException e) {
      // A table whose file cannot be read (a truncated file) fails only what needs it
      // (docs/storage.md#a-file-that-cannot-be-read): found after a failed copy, so that a good
      // copy costs nothing more.
      Map<String, String> unreadable = unreadable(lake, database, snapshot);
      if (unreadable.isEmpty()) {
        throw e;
      }
      for (Map.Entry<String, String> table : unreadable.entrySet()) {
        if (REQUIRED.contains(table.getKey())) {
          IllegalStateException failure =
              new IllegalStateException(
                  table.getValue()
                      + "; the attribution needs this table: nothing was copied"
                      + " (docs/storage.md#a-file-that-cannot-be-read)");
          failure.addSuppressed(e);
          throw failure;
        }
      }
      Map<String, String> skipped = new TreeMap<>();
      unreadable.forEach((table, why) -> skipped.put(table, why + "; its queries are skipped"));
      // said by the caller, once per copy (correlate, report)
      return copy(lake, database, null, snapshot, skipped);
    }
    // the attribution spark-correlate stored with exactly this snapshot, when there is one: a
    // report then reads it and its results instead of attributing again
    // (docs/scale.md#stored-results)
    LakeStoredResults.adopt(lake, database, copied);
    return copied;
  }

  /**
   * The tables the attribution cannot do without: a request table or the client rows that cannot be
   * read fails the copy; any other table that cannot be read is left empty and said so
   * (docs/storage.md#a-file-that-cannot-be-read).
   */
  private static final Set<String> REQUIRED =
      Set.of(
          "request_arrived",
          "request_timing",
          "request_finished",
          "request_aborted",
          // the prefill-to-decode hand-over of a disaggregated request: per-request components
          "kv_transfer",
          // a proxy's map of client IDs to the servers' (docs/formats/pd.md#proxy-access-log)
          "proxy_request",
          CLIENT_TIMING);

  /**
   * Each lake table whose files DuckDB cannot read (their footers), with the line naming table and
   * file; empty when every table reads, or when a file is gone (merged away by compaction since the
   * listing: the next copy reads again).
   */
  private static Map<String, String> unreadable(
      Path lake, Database database, LakeSnapshot snapshot) {
    Map<String, String> unreadable = new TreeMap<>();
    try (Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      for (TableSchema<?> table : LakeTables.ALL) {
        List<LakeFile> files = snapshot.files(table.name());
        if (files.isEmpty()) {
          continue;
        }
        // a count reads every file's footer (its row counts), not the data
        try (ResultSet rows =
            statement.executeQuery("SELECT count(*) FROM (" + Lake.select(table, files) + ")")) {
          rows.next();
        } catch (SQLException e) {
          for (LakeFile file : files) {
            if (!Files.exists(file.path())) {
              return Map.of();
            }
          }
          unreadable.put(table.name(), Lake.unreadable(lake, table.name(), e));
        }
      }
    } catch (SQLException e) {
      return Map.of();
    }
    return unreadable;
  }

  private static Copied copy(
      Path lake,
      Database database,
      @Nullable Copied previous,
      LakeSnapshot snapshot,
      Map<String, String> skipped) {
    Map<String, Set<String>> copiedFiles = new TreeMap<>();
    for (TableSchema<?> table : LakeTables.ALL) {
      Set<String> names = new TreeSet<>();
      if (!skipped.containsKey(table.name())) {
        for (LakeFile file : snapshot.files(table.name())) {
          names.add(file.path().toString());
        }
      }
      copiedFiles.put(table.name(), names);
    }
    long rows = 0;
    int newFiles = 0;
    String current = "";
    String tables;
    boolean append;
    try (Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      append =
          previous != null
              && previous.tables().equals(tables(statement))
              && previous.copiedFiles().keySet().equals(copiedFiles.keySet())
              && previous.copiedFiles().entrySet().stream()
                  .allMatch(e -> copiedFiles.get(e.getKey()).containsAll(e.getValue()));
      connection.setAutoCommit(false);
      try {
        for (TableSchema<?> table : LakeTables.ALL) {
          current = table.name();
          if (skipped.containsKey(table.name())) {
            // never a required table, so never client_timing: emptied, not left stale
            statement.execute("DELETE FROM " + table.name());
            continue;
          }
          List<LakeFile> files = snapshot.files(table.name());
          if (append) {
            Set<String> before = previous.copiedFiles().get(table.name());
            files = files.stream().filter(f -> !before.contains(f.path().toString())).toList();
            newFiles += files.size();
            if (files.isEmpty()) {
              continue;
            }
          }
          String select = Lake.select(table, files);
          if (table.name().equals(CLIENT_TIMING)) {
            rows += copyClientRows(statement, select, lake, append);
            continue;
          }
          if (!append) {
            statement.execute("DELETE FROM " + table.name());
          }
          rows += statement.executeUpdate("INSERT INTO " + table.name() + " BY NAME " + select);
        }
        connection.commit();
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
      connection.setAutoCommit(true);
      if (!append) {
        // DuckDB renumbers row ids when a checkpoint drops the deleted rows; the attribution's
        // inputs fingerprint counts rows and the last row id, so settle them now, or the next
        // round would see "new" inputs and attribute the same data again. Appended rows keep
        // their ids: no deletes, nothing to settle.
        current = "(checkpoint)";
        statement.execute("CHECKPOINT");
      }
      current = "(row counts)";
      tables = tables(statement);
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
    return new Copied(
        snapshot.fileCount(),
        rows,
        fingerprint(snapshot),
        append,
        append ? newFiles : snapshot.fileCount(),
        copiedFiles,
        tables,
        List.copyOf(skipped.values()));
  }

  /** Rows and last row id of each lake table of the file: what tells whether it was rewritten. */
  private static String tables(Statement statement) throws SQLException {
    StringBuilder text = new StringBuilder();
    for (TableSchema<?> table : LakeTables.ALL) {
      try (ResultSet result =
          statement.executeQuery(
              "SELECT count(*) || '/' || coalesce(max(rowid), -1) FROM " + table.name())) {
        result.next();
        text.append(table.name()).append('=').append(result.getString(1)).append(' ');
      }
    }
    return text.toString();
  }
}
