package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ReadOnlyDatabaseTest {
  @TempDir Path dir;

  @Test
  void aMissingFileIsAnErrorNamingThePathAndIsNotCreated() {
    Path typo = dir.resolve("tokentrce.duckdb");

    assertThatThrownBy(() -> Database.openReadOnly(DatabaseSettings.file(typo)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no DuckDB file at " + typo.toAbsolutePath());
    assertThat(typo).doesNotExist();
    assertThat(dir.resolve("tokentrce.duckdb.wal")).doesNotExist();
  }

  @Test
  void readersShareTheFileAndCannotWriteIt() throws Exception {
    Path file = dir.resolve("t.duckdb");
    Database.open(DatabaseSettings.file(file)).close();

    try (Database first = Database.openReadOnly(DatabaseSettings.file(file));
        Database second = Database.openReadOnly(DatabaseSettings.file(file))) {
      long runs =
          first
              .jdbi()
              .withHandle(h -> h.select("SELECT count(*) FROM runs").mapTo(Long.class).one());
      assertThat(runs).isZero();
      assertThat(second.name()).isEqualTo(file.toString());
      assertThatThrownBy(
              () -> first.jdbi().useHandle(h -> h.execute("CREATE TABLE scratch (i INTEGER)")))
          .hasMessageContaining("read-only");
    }
  }

  @Test
  void aReaderRefusesAFileOfAnOlderSchemaVersionSayingHowToMigrateIt() throws Exception {
    Path file = dir.resolve("old.duckdb");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + file);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE runs (run_id VARCHAR)"); // no schema_version: version 0
    }

    assertThatThrownBy(() -> Database.openReadOnly(DatabaseSettings.file(file)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("schema version 0")
        .hasMessageContaining("to migrate it");
  }

  @Test
  void writersCreateFilesThatDuckDb14Reads() throws Exception {
    Path file = dir.resolve("new.duckdb");
    Database.open(DatabaseSettings.file(file)).close();

    // docs/storage.md#duckdb-file-compatibility: 67 is v1.4.0's header version
    assertThat(DuckDbFiles.headerVersion(file)).isEqualTo(DuckDbFiles.STORAGE_HEADER_VERSION);
    assertThat(Files.size(file)).isPositive();

    // written again (migrated, appended), the file keeps its format
    try (Database again = Database.open(DatabaseSettings.file(file))) {
      again
          .jdbi()
          .useHandle(h -> h.execute("CREATE TABLE extra AS SELECT range AS i FROM range(1000)"));
    }
    assertThat(DuckDbFiles.headerVersion(file)).isEqualTo(DuckDbFiles.STORAGE_HEADER_VERSION);
  }
}
