package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.duckdb.DuckDBConnection;
import org.jdbi.v3.core.Jdbi;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An open DuckDB analysis database (a file, or in memory) with the shared schema of {@code
 * sql/schema/} applied in the order of {@code sql/schema/INDEX}. Thread-safe: {@link #jdbi()} gives
 * every handle its own duplicate of the one underlying connection, so an in-memory database is
 * shared by all handles (docs/design.md#jdbi-connections).
 */
public final class Database implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Database.class);

  private final DuckDBConnection connection;
  private final Jdbi jdbi;
  private final String name;

  /** Run on every connection before use (a search path), or null. */
  private volatile @Nullable String session;

  private Database(DuckDBConnection connection, String name) {
    this.connection = connection;
    this.jdbi = Jdbi.create(this::newConnection);
    this.name = name;
  }

  /**
   * Opens (or creates) the database for writing and migrates its schema to the latest version. A
   * new file is created in the storage format of {@link DuckDbFiles#STORAGE_VERSION}, which DuckDB
   * 1.4 and later read.
   *
   * @throws IllegalStateException naming the file when DuckDB cannot open it or the schema fails
   */
  public static Database open(DatabaseSettings settings) {
    requireNonNull(settings, "settings is null");
    Path file = settings.file();
    String name = file == null ? ":memory:" : file.toString();
    String url = file == null ? "jdbc:duckdb:" : "jdbc:duckdb:" + file.toAbsolutePath();
    // memory_limit and threads go in as connection properties, so no value is spliced into SQL
    Database database =
        connect(url, name, DuckDbFiles.writer(settings.memoryLimit(), settings.threads()));
    try {
      database.applySchema();
    } catch (RuntimeException e) {
      database.close();
      throw e;
    }
    log.debug(
        "opened {} (memory_limit={}, threads={})",
        name,
        settings.memoryLimit(),
        settings.threads());
    return database;
  }

  /**
   * Opens an existing database file READ_ONLY: no write lock (other readers, and DuckDB clients,
   * may open it too), never creates the file, never migrates.
   *
   * @throws IllegalArgumentException naming the path when there is no such file (or no file given)
   * @throws IllegalStateException when DuckDB cannot open it (e.g. a writer holds it) or its schema
   *     version is not this code's (saying how to migrate it)
   */
  public static Database openReadOnly(DatabaseSettings settings) {
    requireNonNull(settings, "settings is null");
    Path file = settings.file();
    if (file == null) {
      throw new IllegalArgumentException("a read-only database needs a file");
    }
    DuckDbFiles.requireExisting(file);
    String name = file.toString();
    Database database =
        connect(
            "jdbc:duckdb:" + file.toAbsolutePath(),
            name,
            DuckDbFiles.reader(settings.memoryLimit(), settings.threads()));
    try {
      SqlCatalog.migrations().requireLatest(database.connection, name);
    } catch (SQLException | RuntimeException e) {
      database.close();
      throw e instanceof RuntimeException
          ? (RuntimeException) e
          : new IllegalStateException(name + ": cannot read the schema version", e);
    }
    log.debug("opened {} read-only", name);
    return database;
  }

  /**
   * Opens an existing database file READ_ONLY for a reader that computes something of its own (the
   * {@code report} recomputing the attribution): an in-memory database attaches the file {@code
   * READ_ONLY}; the {@code scratchTables} are copied (with their constraints) into memory, and
   * every connection's search path finds those copies first, then the file's tables, so the same
   * SQL reads and writes as on the file itself. The file is never written and holds no write lock
   * (docs/storage.md#read-only-readers); what is written goes when this is closed. Its {@link
   * #name()} is the file's.
   *
   * @throws IllegalArgumentException naming the path when there is no such file (or no file given)
   * @throws IllegalStateException when DuckDB cannot open it or its schema version is not this
   *     code's
   */
  public static Database openReadOnly(DatabaseSettings settings, Collection<String> scratchTables) {
    requireNonNull(settings, "settings is null");
    requireNonNull(scratchTables, "scratchTables is null");
    Path file = settings.file();
    if (file == null) {
      throw new IllegalArgumentException("a read-only database needs a file");
    }
    DuckDbFiles.requireExisting(file);
    String name = file.toString();
    Properties properties = DuckDbFiles.reader(settings.memoryLimit(), settings.threads());
    properties.remove("duckdb.read_only"); // the in-memory database is written; the file is not
    Database database = connect("jdbc:duckdb:", name, properties);
    try {
      database.mirror(file, scratchTables);
      SqlCatalog.migrations().requireLatest(database.connection, name);
    } catch (SQLException | RuntimeException e) {
      database.close();
      throw e instanceof RuntimeException
          ? (RuntimeException) e
          : new IllegalStateException(name + ": cannot open it read-only: " + e.getMessage(), e);
    }
    log.debug("opened {} read-only, {} in memory", name, scratchTables);
    return database;
  }

  /**
   * The catalog name of the attached file in {@link #openReadOnly(DatabaseSettings, Collection)}.
   */
  private static final String STORED = "stored";

  private void mirror(Path file, Collection<String> scratchTables) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      String path = file.toAbsolutePath().toString().replace("'", "''");
      statement.execute("ATTACH '" + path + "' AS " + STORED + " (READ_ONLY)");
    }
    Map<String, String> tables = new LinkedHashMap<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT table_name, sql FROM duckdb_tables() WHERE database_name = ? AND schema_name"
                + " = 'main' ORDER BY table_name")) {
      select.setString(1, STORED);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          if (scratchTables.contains(rows.getString(1))) {
            tables.put(rows.getString(1), rows.getString(2));
          }
        }
      }
    }
    try (Statement statement = connection.createStatement()) {
      for (Map.Entry<String, String> table : tables.entrySet()) {
        String quoted = "\"" + table.getKey().replace("\"", "\"\"") + "\"";
        statement.execute(table.getValue()); // its CREATE TABLE, into memory
        statement.execute(
            "INSERT INTO memory.main." + quoted + " SELECT * FROM " + STORED + ".main." + quoted);
      }
      // unqualified names: the copies in memory first, then the file's tables (rowid included)
      session = "SET search_path = 'memory.main," + STORED + ".main'";
      statement.execute(session);
    }
  }

  private static Database connect(String url, String name, Properties properties) {
    try {
      return new Database(
          DriverManager.getConnection(url, properties).unwrap(DuckDBConnection.class), name);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot open DuckDB database " + name + ": " + e.getMessage(), e);
    }
  }

  /**
   * Confines what SQL on this database may read to the database itself (and what it attached) and
   * {@code allowed}: DuckDB's {@code allowed_directories} (a directory) and {@code allowed_paths}
   * (a file), then {@code enable_external_access = false} and {@code lock_configuration = true}, so
   * no statement can read another file ({@code read_text('/etc/shadow')}, {@code glob('/root/*')}),
   * write one, attach one, install or load an extension, or lift the confinement. For the SQL a
   * user gives {@code tokentrace sql} (docs/privacy.md#sql-file-access). Call once, after any views
   * over files were created; there is no way back for this database.
   *
   * @throws IllegalArgumentException naming a path that does not exist
   */
  public void confineFileAccess(Collection<Path> allowed) {
    requireNonNull(allowed, "allowed is null");
    List<String> directories = new ArrayList<>();
    List<String> files = new ArrayList<>();
    for (Path path : allowed) {
      Path absolute = path.toAbsolutePath().normalize();
      if (Files.isDirectory(absolute)) {
        directories.add(absolute + absolute.getFileSystem().getSeparator());
      } else if (Files.exists(absolute)) {
        files.add(absolute.toString());
      } else {
        throw new IllegalArgumentException(path + ": no such file or directory");
      }
    }
    try (Statement statement = connection.createStatement()) {
      if (!directories.isEmpty()) {
        statement.execute("SET allowed_directories = " + listLiteral(directories));
      }
      if (!files.isEmpty()) {
        statement.execute("SET allowed_paths = " + listLiteral(files));
      }
      statement.execute("SET enable_external_access = false");
      statement.execute("SET lock_configuration = true");
    } catch (SQLException e) {
      throw new IllegalStateException(name + ": cannot confine file access: " + e.getMessage(), e);
    }
    log.debug("{}: file access confined to {}", name, allowed);
  }

  /** A DuckDB list of string literals (quotes doubled): SET takes no parameters. */
  private static String listLiteral(List<String> values) {
    StringBuilder out = new StringBuilder("[");
    for (String value : values) {
      out.append(out.length() > 1 ? ", " : "")
          .append('\'')
          .append(value.replace("'", "''"))
          .append('\'');
    }
    return out.append(']').toString();
  }

  /** Jdbi over this database; each handle has its own connection and transaction. */
  public Jdbi jdbi() {
    return jdbi;
  }

  /**
   * A new connection to this database with its own transaction, for the Appender (which must be
   * created on the connection whose transaction it joins;
   * docs/design.md#appender-and-transactions). The caller closes it.
   */
  public DuckDBConnection newConnection() {
    try {
      DuckDBConnection duplicate = (DuckDBConnection) connection.duplicate();
      String sql = session;
      if (sql != null) {
        try (Statement statement = duplicate.createStatement()) {
          statement.execute(sql);
        } catch (SQLException e) {
          duplicate.close();
          throw e;
        }
      }
      return duplicate;
    } catch (SQLException e) {
      throw new IllegalStateException("cannot open a connection to " + name, e);
    }
  }

  /** The file as given, or {@code :memory:}; for messages and reports. */
  public String name() {
    return name;
  }

  private void applySchema() {
    applySchema(connection, name);
  }

  /**
   * Brings the schema to the latest version of {@code sql/schema/INDEX} ({@link SchemaMigrations}:
   * one transaction per version, recorded in {@code schema_version}) on any connection: the one
   * schema applier for every writer of the store. Call in auto-commit mode.
   *
   * @param name the database as the user knows it, for messages
   * @return the version the database had before (0: none recorded, e.g. a new file)
   * @throws IllegalStateException naming the schema file that failed, or when the database was
   *     written by a newer tokentrace
   */
  public static int applySchema(Connection target, String name) {
    SchemaMigrations migrations = SqlCatalog.migrations();
    try {
      int before = migrations.migrate(target, name, Clock.systemUTC());
      if (before < migrations.latest()) {
        log.info("{}: schema version {} -> {}", name, before, migrations.latest());
      }
      return before;
    } catch (SQLException e) {
      throw new IllegalStateException(name + ": cannot migrate the schema: " + e.getMessage(), e);
    }
  }

  /** Runs one SQL file (several statements allowed) on a connection. */
  static void execute(String sqlName, Connection target) {
    try (Statement statement = target.createStatement()) {
      statement.execute(SqlCatalog.get(sqlName));
    } catch (SQLException e) {
      throw new IllegalStateException("sql/" + sqlName + ".sql failed: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    try {
      connection.close();
    } catch (SQLException e) {
      throw new IllegalStateException("cannot close DuckDB database " + name, e);
    }
  }

  @Override
  public String toString() {
    return "Database[" + name + "]";
  }
}
