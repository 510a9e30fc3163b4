package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The schema as numbered migrations (docs/storage.md#schema-versions-and-migrations). {@code
 * sql/schema/INDEX} lists {@code <version> <file>} lines: the files of one version run in order, in
 * one transaction, on a database whose {@code schema_version} row is below that version, and the
 * row is raised in the same transaction. A database without the table was written before versions
 * existed (or is new): version 0. Version 1 is the schema of the first release; its files are
 * idempotent ({@code IF NOT EXISTS}), as they were applied on every open before.
 */
public final class SchemaMigrations {
  /** The one-row table that says which migrations a database has had. */
  public static final String VERSION_TABLE = "schema_version";

  private static final String CREATE_VERSION_TABLE =
      "CREATE TABLE IF NOT EXISTS "
          + VERSION_TABLE
          + " (version INTEGER NOT NULL, migrated_ts TIMESTAMP NOT NULL)";

  /** One version: its number and its files, in order. */
  public record Migration(int version, List<String> files) {
    public Migration {
      files = List.copyOf(files);
    }
  }

  private final List<Migration> migrations;
  private final Function<String, String> sql;

  /**
   * @param index the text of {@code sql/schema/INDEX}
   * @param sql the text of a schema file by its name in the index
   */
  public SchemaMigrations(String index, Function<String, String> sql) {
    this.migrations = parse(requireNonNull(index, "index is null"));
    this.sql = requireNonNull(sql, "sql is null");
  }

  public List<Migration> migrations() {
    return migrations;
  }

  /** The version this code writes: the last migration's. */
  public int latest() {
    return migrations.get(migrations.size() - 1).version();
  }

  /** Every file in order (all versions). */
  public List<String> files() {
    List<String> files = new ArrayList<>();
    migrations.forEach(migration -> files.addAll(migration.files()));
    return files;
  }

  /**
   * Brings the database to {@link #latest()}, one transaction per version. Call in auto-commit
   * mode; it is restored.
   *
   * @return the version the database had before (0: none recorded)
   * @throws IllegalStateException when the database is newer than this code, or a migration fails
   *     (naming the file; that version's changes are rolled back)
   */
  public int migrate(Connection connection, String name, Clock clock) throws SQLException {
    int current = version(connection);
    if (current > latest()) {
      throw newer(name, current);
    }
    boolean autoCommit = connection.getAutoCommit();
    try {
      for (Migration migration : migrations) {
        if (migration.version() <= current) {
          continue;
        }
        connection.setAutoCommit(false);
        try {
          apply(connection, migration, clock.instant());
          connection.commit();
        } catch (SQLException | RuntimeException e) {
          connection.rollback();
          throw e;
        }
      }
    } finally {
      connection.setAutoCommit(autoCommit);
    }
    return current;
  }

  /**
   * Checks that a database opened for reading has exactly this code's schema version.
   *
   * @throws IllegalStateException saying how to migrate (older) or that a newer tokentrace wrote it
   */
  public void requireLatest(Connection connection, String name) throws SQLException {
    int current = version(connection);
    if (current > latest()) {
      throw newer(name, current);
    }
    if (current < latest()) {
      throw new IllegalStateException(
          name
              + ": schema version "
              + current
              + " (written by an older tokentrace), this one reads "
              + latest()
              + "; run a writing command on it once (e.g. tokentrace correlate --db "
              + name
              + ") to migrate it");
    }
  }

  /** The recorded version; 0 when there is no {@value #VERSION_TABLE} table. */
  public static int version(Connection connection) throws SQLException {
    try (PreparedStatement exists =
        connection.prepareStatement(
            "SELECT count(*) FROM information_schema.tables"
                + " WHERE table_schema = 'main' AND table_name = ?")) {
      exists.setString(1, VERSION_TABLE);
      try (ResultSet row = exists.executeQuery()) {
        row.next();
        if (row.getLong(1) == 0) {
          return 0;
        }
      }
    }
    try (Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT max(version) FROM " + VERSION_TABLE)) {
      row.next();
      return row.getInt(1);
    }
  }

  private void apply(Connection connection, Migration migration, Instant now) throws SQLException {
    for (String file : migration.files()) {
      try (Statement statement = connection.createStatement()) {
        statement.execute(sql.apply(file));
      } catch (SQLException e) {
        throw new IllegalStateException(
            "migration to schema version "
                + migration.version()
                + ": sql/schema/"
                + file
                + " failed: "
                + e.getMessage(),
            e);
      }
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute(CREATE_VERSION_TABLE);
      statement.execute("DELETE FROM " + VERSION_TABLE);
    }
    try (PreparedStatement insert =
        connection.prepareStatement("INSERT INTO " + VERSION_TABLE + " VALUES (?, ?)")) {
      insert.setInt(1, migration.version());
      insert.setTimestamp(2, Timestamp.from(now));
      insert.executeUpdate();
    }
  }

  private IllegalStateException newer(String name, int current) {
    return new IllegalStateException(
        name
            + ": schema version "
            + current
            + " was written by a newer tokentrace; this one knows versions up to "
            + latest());
  }

  /** {@code <version> <file>} per line; blank lines and {@code #} comments skipped. */
  static List<Migration> parse(String index) {
    Map<Integer, List<String>> byVersion = new LinkedHashMap<>();
    int last = 0;
    int lineNo = 0;
    for (String raw : index.split("\n", -1)) {
      lineNo++;
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\\s+");
      int version;
      try {
        version = parts.length == 2 ? Integer.parseInt(parts[0]) : -1;
      } catch (NumberFormatException e) {
        version = -1;
      }
      if (version < 1 || !parts[1].endsWith(".sql")) {
        throw new IllegalStateException(
            "sql/schema/INDEX:" + lineNo + ": expected '<version> <file>.sql', got '" + line + "'");
      }
      if (version < last) {
        throw new IllegalStateException(
            "sql/schema/INDEX:" + lineNo + ": version " + version + " after " + last);
      }
      if (version > last + 1 && last > 0 || last == 0 && version != 1) {
        throw new IllegalStateException(
            "sql/schema/INDEX:" + lineNo + ": version " + version + " skips a number");
      }
      last = version;
      byVersion.computeIfAbsent(version, v -> new ArrayList<>()).add(parts[1]);
    }
    if (byVersion.isEmpty()) {
      throw new IllegalStateException("sql/schema/INDEX lists no migration");
    }
    List<Migration> migrations = new ArrayList<>();
    byVersion.forEach((version, files) -> migrations.add(new Migration(version, files)));
    return List.copyOf(migrations);
  }
}
