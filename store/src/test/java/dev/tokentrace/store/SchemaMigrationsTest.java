package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class SchemaMigrationsTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T20:00:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  @Test
  void opensAFileWrittenByTheReleaseBeforeVersionsAndMigratesIt() throws Exception {
    Path file = ReleaseOneFile.create(dir.resolve("written-by-v1.duckdb"));

    try (Database database = Database.open(DatabaseSettings.file(file));
        Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      assertThat(SchemaMigrations.version(connection)).isEqualTo(SqlCatalog.migrations().latest());
      try (ResultSet row =
          statement.executeQuery(
              "SELECT arrival_mono_s FROM request_timing UNION ALL"
                  + " SELECT itl_max_ms FROM client_timing")) {
        assertThat(row.next()).isTrue();
        assertThat(row.getDouble(1)).isEqualTo(12.5);
        assertThat(row.next()).isTrue();
        assertThat(row.getDouble(1)).isEqualTo(3.5);
      }
      SqlCatalog.migrations().requireLatest(connection, file.toString());
    }
  }

  @Test
  void aNewDatabaseGetsTheLatestVersionAndReopeningChangesNothing() throws Exception {
    SchemaMigrations migrations = SqlCatalog.migrations();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
      assertThat(migrations.migrate(connection, "mem", CLOCK)).isZero();
      assertThat(migrations.migrate(connection, "mem", CLOCK)).isEqualTo(migrations.latest());
      try (Statement statement = connection.createStatement();
          ResultSet row =
              statement.executeQuery("SELECT count(*), max(version) FROM schema_version")) {
        row.next();
        assertThat(row.getLong(1)).isOne();
        assertThat(row.getInt(2)).isEqualTo(migrations.latest());
      }
      assertThat(connection.getAutoCommit()).isTrue();
    }
  }

  @Test
  void refusesAFileOfANewerVersion() throws Exception {
    SchemaMigrations migrations = SqlCatalog.migrations();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
      migrations.migrate(connection, "mem", CLOCK);
      try (Statement statement = connection.createStatement()) {
        statement.execute("UPDATE schema_version SET version = version + 1");
      }
      assertThatThrownBy(() -> migrations.migrate(connection, "x.duckdb", CLOCK))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("x.duckdb: schema version " + (migrations.latest() + 1))
          .hasMessageContaining("newer tokentrace");
      assertThatThrownBy(() -> migrations.requireLatest(connection, "x.duckdb"))
          .hasMessageContaining("newer tokentrace");
    }
  }

  @Test
  void aReaderNamesTheWayToMigrateAnOlderFile() throws Exception {
    SchemaMigrations migrations =
        new SchemaMigrations(
            "1 a.sql\n2 b.sql\n",
            Map.of("a.sql", "CREATE TABLE a (i INTEGER);", "b.sql", "CREATE TABLE b (i INTEGER);")
                ::get);
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
      new SchemaMigrations("1 a.sql\n", Map.of("a.sql", "CREATE TABLE a (i INTEGER);")::get)
          .migrate(connection, "mem", CLOCK);

      assertThatThrownBy(() -> migrations.requireLatest(connection, "old.duckdb"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("old.duckdb: schema version 1")
          .hasMessageContaining("this one reads 2")
          .hasMessageContaining("to migrate it");
      assertThat(migrations.migrate(connection, "old.duckdb", CLOCK)).isOne();
      assertThat(SchemaMigrations.version(connection)).isEqualTo(2);
    }
  }

  @Test
  void aFailedMigrationLeavesTheVersionAndItsTablesAsTheyWere() throws Exception {
    SchemaMigrations migrations =
        new SchemaMigrations(
            "1 a.sql\n2 b.sql\n2 c.sql\n",
            Map.of(
                    "a.sql", "CREATE TABLE a (i INTEGER);",
                    "b.sql", "CREATE TABLE b (i INTEGER); ALTER TABLE a ADD COLUMN j INTEGER;",
                    "c.sql", "SELECT * FROM no_such_table;")
                ::get);
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
      assertThatThrownBy(() -> migrations.migrate(connection, "mem", CLOCK))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("migration to schema version 2: sql/schema/c.sql failed");

      assertThat(SchemaMigrations.version(connection)).isOne();
      assertThat(tables(connection)).containsExactly("a", "schema_version");
      assertThat(connection.getAutoCommit()).isTrue();
    }
  }

  @Test
  void theIndexIsNumberedWithoutGaps() {
    assertThat(SqlCatalog.migrations().migrations().get(0).version()).isOne();
    assertThatThrownBy(() -> SchemaMigrations.parse("1 a.sql\n3 b.sql\n"))
        .hasMessageContaining("sql/schema/INDEX:2: version 3 skips a number");
    assertThatThrownBy(() -> SchemaMigrations.parse("2 a.sql\n"))
        .hasMessageContaining("skips a number");
    assertThatThrownBy(() -> SchemaMigrations.parse("1 a.sql\n2 b.sql\n1 c.sql\n"))
        .hasMessageContaining("sql/schema/INDEX:3: version 1 after 2");
    assertThatThrownBy(() -> SchemaMigrations.parse("a.sql\n"))
        .hasMessageContaining("expected '<version> <file>.sql'");
  }

  private static List<String> tables(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT table_name FROM information_schema.tables ORDER BY table_name")) {
      List<String> tables = new java.util.ArrayList<>();
      while (row.next()) {
        tables.add(row.getString(1));
      }
      return tables;
    }
  }
}
