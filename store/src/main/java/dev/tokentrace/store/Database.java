package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Properties;
import org.duckdb.DuckDBConnection;
import org.jdbi.v3.core.Jdbi;
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

  private Database(DuckDBConnection connection, String name) {
    this.connection = connection;
    this.jdbi = Jdbi.create(connection::duplicate);
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

  private static Database connect(String url, String name, Properties properties) {
    try {
      return new Database(
          DriverManager.getConnection(url, properties).unwrap(DuckDBConnection.class), name);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot open DuckDB database " + name + ": " + e.getMessage(), e);
    }
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
      return (DuckDBConnection) connection.duplicate();
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
