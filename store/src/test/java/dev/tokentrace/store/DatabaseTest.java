package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class DatabaseTest {
  @TempDir Path dir;

  @Test
  void appliesTheSchemaToANewInMemoryDatabase() {
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      assertThat(tables(database))
          .contains(
              "client_timing",
              "request_timing",
              "request_arrived",
              "rejects",
              "runs",
              "run_files",
              "request_attribution");
      assertThat(database.name()).isEqualTo(":memory:");
    }
  }

  @Test
  void sharesOneInMemoryDatabaseAcrossHandles() {
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      database.jdbi().useHandle(handle -> handle.execute("CREATE TABLE probe (x INTEGER)"));
      database.jdbi().useHandle(handle -> handle.execute("INSERT INTO probe VALUES (42)"));
      assertThat(TestQueries.one(database, Integer.class, "SELECT x FROM probe")).isEqualTo(42);
    }
  }

  @Test
  void setsMemoryLimitAndThreads() {
    try (Database database = Database.open(new DatabaseSettings(null, "256MB", 1))) {
      assertThat(setting(database, "threads")).isEqualTo("1");
      assertThat(setting(database, "memory_limit")).isIn("256.0 MB", "244.1 MiB");
    }
  }

  @Test
  void keepsRowsInAFileAcrossReopening() {
    Path file = dir.resolve("analysis.duckdb");
    try (Database database = Database.open(DatabaseSettings.file(file))) {
      database
          .jdbi()
          .useHandle(
              handle ->
                  handle.execute(
                      "INSERT INTO runs VALUES ('r1', 'clients', TIMESTAMP '2026-03-01 12:00:00', 'x', NULL)"));
    }
    assertThat(Files.exists(file)).isTrue();
    try (Database database = Database.open(DatabaseSettings.file(file))) {
      assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM runs")).isEqualTo(1L);
      assertThat(database.name()).isEqualTo(file.toString());
    }
  }

  @Test
  void namesTheFileWhenItCannotBeOpened() throws Exception {
    Path notADatabase = dir.resolve("junk.duckdb");
    Files.writeString(notADatabase, "this is not a DuckDB file, just text long enough to be read");
    assertThatThrownBy(() -> Database.open(DatabaseSettings.file(notADatabase)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("cannot open DuckDB database " + notADatabase);
  }

  private static java.util.List<String> tables(Database database) {
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery("SELECT table_name FROM information_schema.tables ORDER BY 1")
                    .mapTo(String.class)
                    .list());
  }

  private static String setting(Database database, String name) {
    return database
        .jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery("SELECT current_setting(:name)")
                    .bind("name", name)
                    .mapTo(String.class)
                    .one());
  }
}
