package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.ingest.Resume;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.DuckDbFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The bookkeeping that makes batch {@code ingest} idempotent ({@code ingest_files}, schema/004):
 * which file (path, instance and SHA-256 of its content) is loaded, and which was being loaded when
 * a run died. {@link #plan} decides per file: skip it (the same content is loaded for this
 * instance), load it, resume it (a run killed while loading it, same content: what it stored stays
 * and the rest is shipped, docs/follow.md#batch-resume), or load it again after removing its rows
 * (content changed since, or {@code --replace}); {@link #begin} commits that removal and the state
 * {@code loading} before the first line is shipped and tells where each resumed file picks up,
 * {@link #finish} marks the files {@code loaded} once the sink holds all their records. Each call
 * opens the DuckDB file briefly, so the sink can hold it in between. Not thread-safe.
 */
public final class LoadedFiles {
  private final Path db;

  public LoadedFiles(Path db) {
    this.db = requireNonNull(db, "db is null").toAbsolutePath();
  }

  /** What to do with one file, and why (said to the user). */
  public record Decision(SourceFile file, String sha256, long bytes, Action action, String why) {}

  /**
   * Per file: leave it, load it, ship what an interrupted run did not store, or remove what is
   * stored of it and load it again.
   */
  public enum Action {
    SKIP,
    LOAD,
    RESUME,
    RELOAD
  }

  /**
   * Decides for every file. {@code replace}: a file loaded before is loaded again on purpose.
   *
   * @throws IllegalStateException naming the DuckDB file when it cannot be read
   */
  public List<Decision> plan(List<SourceFile> files, boolean replace) {
    List<Decision> decisions = new ArrayList<>();
    try (Connection connection = connect()) {
      for (SourceFile file : files) {
        decisions.add(decide(connection, file, replace));
      }
    } catch (SQLException e) {
      throw failure("cannot read ingest_files", e);
    }
    return decisions;
  }

  /**
   * Removes the stored rows of every {@link Action#RELOAD} file and marks each file to load {@code
   * loading}, in one transaction; {@code removed} hears {@code path: N rows removed}. Returns, for
   * each {@link Action#RESUME} file, how many of its events and rejections are stored: call it
   * after the records an interrupted run left in the topics are in the file.
   */
  public Map<SourceFile, Resume> begin(List<Decision> decisions, Consumer<String> removed) {
    Map<SourceFile, Resume> resume = new HashMap<>();
    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      for (Decision decision : decisions) {
        if (decision.action() == Action.SKIP) {
          continue;
        }
        if (decision.action() == Action.RELOAD) {
          long rows = removeRows(connection, decision.file());
          removed.accept(decision.file().path() + ": " + rows + " stored rows removed");
        }
        if (decision.action() == Action.RESUME) {
          resume.put(decision.file(), stored(connection, decision.file()));
        }
        mark(connection, decision, "loading");
      }
      connection.commit();
    } catch (SQLException e) {
      throw failure("cannot prepare the files to load", e);
    }
    return resume;
  }

  /** Every file begun is in the sink now: marks them {@code loaded}. */
  public void finish(List<Decision> decisions) {
    try (Connection connection = connect()) {
      connection.setAutoCommit(false);
      for (Decision decision : decisions) {
        if (decision.action() != Action.SKIP) {
          mark(connection, decision, "loaded");
        }
      }
      connection.commit();
    } catch (SQLException e) {
      throw failure("cannot record the files loaded", e);
    }
  }

  private Decision decide(Connection connection, SourceFile file, boolean replace)
      throws SQLException {
    String path = file.path().toString();
    String instance = file.parse().instance();
    long bytes;
    String sha256 = sha256(file.path());
    try {
      bytes = Files.size(file.path());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stat " + path, e);
    }
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT source_path, sha256, state, loaded_ts FROM ingest_files"
                + " WHERE instance = ? AND (source_path = ? OR sha256 = ?)"
                + " ORDER BY source_path = ? DESC")) {
      select.setString(1, instance);
      select.setString(2, path);
      select.setString(3, sha256);
      select.setString(4, path);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          String storedPath = rows.getString(1);
          boolean samePath = storedPath.equals(path);
          boolean sameContent = rows.getString(2).equals(sha256);
          String state = rows.getString(3);
          Instant when = rows.getTimestamp(4).toInstant();
          if (samePath && replace) {
            return new Decision(file, sha256, bytes, Action.RELOAD, "--replace: loaded again");
          }
          if (samePath && state.equals("loading") && sameContent) {
            return new Decision(
                file,
                sha256,
                bytes,
                Action.RESUME,
                "a run that was loading it ("
                    + when
                    + ") did not finish: resumed after what it stored");
          }
          if (samePath && state.equals("loading")) {
            return new Decision(
                file,
                sha256,
                bytes,
                Action.RELOAD,
                "a run that was loading it ("
                    + when
                    + ") did not finish and its content changed since: loaded again whole");
          }
          if (sameContent && state.equals("loaded") && !replace) {
            return new Decision(
                file,
                sha256,
                bytes,
                Action.SKIP,
                "already loaded for instance '"
                    + instance
                    + "'"
                    + (samePath ? "" : " as " + storedPath)
                    + " ("
                    + when
                    + "), same content: skipped (--replace loads it again)");
          }
          if (samePath) {
            return new Decision(
                file,
                sha256,
                bytes,
                Action.RELOAD,
                "changed since it was loaded (" + when + "): its rows are replaced");
          }
        }
      }
    }
    return new Decision(file, sha256, bytes, Action.LOAD, "new");
  }

  /** The rows of a file's events (its instance) and rejections stored now. */
  private static Resume stored(Connection connection, SourceFile file) throws SQLException {
    long events = 0;
    for (EventTable<?> table : EventTables.ALL) {
      events +=
          count(
              connection,
              "SELECT count(*) FROM " + table.name() + " WHERE source_path = ? AND instance = ?",
              file.path().toString(),
              file.parse().instance());
    }
    long rejects =
        count(
            connection,
            "SELECT count(*) FROM " + RejectRow.TABLE.name() + " WHERE source_path = ?",
            file.path().toString());
    return new Resume(events, rejects);
  }

  private static long count(Connection connection, String sql, String... parameters)
      throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        select.setString(i + 1, parameters[i]);
      }
      try (ResultSet rows = select.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }

  static long removeRows(Connection connection, SourceFile file) throws SQLException {
    long removed = 0;
    for (EventTable<?> table : EventTables.ALL) {
      String sql = "DELETE FROM " + table.name() + " WHERE source_path = ? AND instance = ?";
      try (PreparedStatement delete = connection.prepareStatement(sql)) {
        delete.setString(1, file.path().toString());
        delete.setString(2, file.parse().instance());
        removed += delete.executeUpdate();
      }
    }
    try (PreparedStatement delete =
        connection.prepareStatement(
            "DELETE FROM " + RejectRow.TABLE.name() + " WHERE source_path = ?")) {
      delete.setString(1, file.path().toString());
      removed += delete.executeUpdate();
    }
    return removed;
  }

  static void mark(Connection connection, Decision decision, String state) throws SQLException {
    try (PreparedStatement upsert =
        connection.prepareStatement(
            "INSERT OR REPLACE INTO ingest_files VALUES (?, ?, ?, ?, ?, ?)")) {
      upsert.setString(1, decision.file().path().toString());
      upsert.setString(2, decision.file().parse().instance());
      upsert.setString(3, decision.sha256());
      upsert.setLong(4, decision.bytes());
      upsert.setString(5, state);
      upsert.setTimestamp(6, Timestamp.from(Instant.now()));
      upsert.executeUpdate();
    }
  }

  private Connection connect() throws SQLException {
    try {
      Path parent = db.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create directory " + db.getParent(), e);
    }
    Connection connection =
        DriverManager.getConnection(
            "jdbc:duckdb:" + db,
            DuckDbFiles.writer(
                DatabaseSettings.MEMORY_LIMIT_DEFAULT, DatabaseSettings.THREADS_DEFAULT));
    try {
      DuckDbSchema.apply(connection, db.toString());
    } catch (RuntimeException e) {
      connection.close();
      throw e;
    }
    return connection;
  }

  private IllegalStateException failure(String what, Exception e) {
    return new IllegalStateException("duckdb " + db + ": " + what + ": " + e.getMessage(), e);
  }

  /** SHA-256 of the file's bytes as stored (a gzip file's compressed bytes). */
  static String sha256(Path file) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
    byte[] buffer = new byte[64 * 1024];
    try (InputStream in = Files.newInputStream(file)) {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        digest.update(buffer, 0, read);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}
