package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.table.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The reader API of the Parquet lake (docs/storage.md#what-a-reader-sees): a DuckDB connection with
 * one view per lake table over the committed, non-overlapping files of one {@link LakeSnapshot}.
 * Readers never write the lake and take no lock: any number may run in any process while sinks
 * write and compaction runs.
 */
public final class Lake {
  private Lake() {}

  /**
   * An in-memory database with the whole schema of {@code sql/schema/} (so every named query,
   * attribution view and SQL-written table exists), in which each lake table ({@link
   * LakeTables#ALL}) is a view over the lake's files as of now, and each versioned table ({@code
   * request_attribution}) a view over its committed version (empty until one is written). {@code
   * settings.file()} is ignored. Call {@link #attachViews} on one of its connections to see files
   * committed since.
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   */
  public static Database openReader(Path dir, DatabaseSettings settings) {
    requireNonNull(dir, "dir is null");
    requireNonNull(settings, "settings is null");
    LakeMarker.read(dir);
    Database database =
        Database.open(new DatabaseSettings(null, settings.memoryLimit(), settings.threads()));
    try (Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      for (TableSchema<?> table : LakeTables.ALL) {
        statement.execute("DROP TABLE IF EXISTS " + table.name());
      }
      LakeTableVersions.prepareReader(connection);
      attachViews(connection, dir);
      return database;
    } catch (SQLException | RuntimeException e) {
      database.close();
      throw e instanceof RuntimeException
          ? (RuntimeException) e
          : new IllegalStateException("lake " + dir + ": cannot create its views", e);
    }
  }

  /** {@link #openReader(Path, DatabaseSettings)} with the default DuckDB limits. */
  public static Database openReader(Path dir) {
    return openReader(dir, DatabaseSettings.inMemory());
  }

  /**
   * Creates or replaces one view per lake table on {@code connection} over the files of a new
   * {@link LakeSnapshot}: committed, non-overlapping, columns cast to the table's descriptor (a
   * file written before a column existed reads it as NULL); a table without a file is an empty view
   * with the right columns. The connection must not hold tables of those names. Then the versioned
   * tables ({@link LakeTableVersions#TABLES}: {@code request_attribution}) become views over their
   * committed version (docs/storage.md#versioned-tables), unless the connection holds a table of
   * that name. Safe to call again at any time to see newer files and versions (a long-running
   * reader refreshes this way).
   *
   * @return the snapshot the views read
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   */
  public static LakeSnapshot attachViews(Connection connection, Path dir) throws SQLException {
    requireNonNull(connection, "connection is null");
    LakeSnapshot snapshot = LakeSnapshot.scan(dir);
    for (TableSchema<?> table : LakeTables.ALL) {
      String view = "CREATE OR REPLACE VIEW " + table.name() + " AS ";
      try (Statement statement = connection.createStatement()) {
        statement.execute(view + select(table, snapshot.files(table.name())));
      } catch (SQLException e) {
        // a truncated or corrupt file fails only its table's queries
        // (docs/storage.md#a-file-that-cannot-be-read); a file merged away since the listing is
        // no such file: the caller reads again
        for (LakeFile file : snapshot.files(table.name())) {
          if (!Files.exists(file.path())) {
            throw e;
          }
        }
        try (Statement statement = connection.createStatement()) {
          statement.execute(
              view + LakeTables.unreadableSelect(table, unreadable(dir, table.name(), e)));
        }
      }
    }
    LakeTableVersions.attachViews(connection, dir);
    return snapshot;
  }

  /** In the error of every read of a table whose files cannot be read. */
  public static final String UNREADABLE = " cannot be read: ";

  /**
   * Why a lake table's files cannot be read: the table and DuckDB's first line (naming the file).
   */
  public static String unreadable(Path dir, String table, SQLException e) {
    String message = String.valueOf(e.getMessage());
    int newline = message.indexOf('\n');
    return "lake "
        + dir
        + ": table "
        + table
        + UNREADABLE
        + (newline < 0 ? message : message.substring(0, newline));
  }

  /**
   * The SQL that reads {@code table} from exactly these files (file names are SQL literals, quotes
   * doubled), or the empty select when there is none.
   */
  public static String select(TableSchema<?> table, List<LakeFile> files) {
    if (files.isEmpty()) {
      return LakeTables.emptySelect(table);
    }
    return "SELECT " + LakeTables.selectList(table) + " FROM " + readParquet(files);
  }

  /**
   * One {@code CREATE OR REPLACE VIEW} per lake table over the snapshot's files, with a header
   * saying when and from what it was taken: the safe path for an engine that would otherwise glob
   * the folder (docs/storage.md#what-a-reader-sees). DuckDB runs it as is.
   */
  public static String viewsSql(LakeSnapshot snapshot) {
    StringBuilder sql =
        new StringBuilder("-- tokentrace lake ")
            .append(snapshot.lake())
            .append(": committed, non-overlapping files as of ")
            .append(java.time.Instant.now())
            .append(" (docs/storage.md#what-a-reader-sees)\n");
    for (TableSchema<?> table : LakeTables.ALL) {
      sql.append("CREATE OR REPLACE VIEW ")
          .append(table.name())
          .append(" AS ")
          .append(select(table, snapshot.files(table.name())))
          .append(";\n");
    }
    sql.append(LakeTableVersions.viewsSql(snapshot.lake()));
    return sql.toString();
  }

  static String readParquet(List<LakeFile> files) {
    StringBuilder list = new StringBuilder("read_parquet([");
    for (int i = 0; i < files.size(); i++) {
      if (i > 0) {
        list.append(", ");
      }
      list.append(literal(files.get(i).path().toString()));
    }
    return list.append("], union_by_name = true, hive_partitioning = false)").toString();
  }

  static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
