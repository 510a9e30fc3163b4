package dev.tokentrace.store.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The versioned tables of the lake (docs/storage.md#versioned-tables). */
final class LakeTableVersionsTest {
  static final String TABLE = "request_attribution";

  @TempDir Path dir;

  private Path lake() {
    Path lake = dir.resolve("lake");
    LakeMarker.of("tokentrace", "g1").createOrCheck(lake);
    return lake;
  }

  /** Writes {@code rows} rows of run {@code run} as the next version, from a scratch database. */
  private static LakeTableVersions.Written write(Path lake, String run, int rows, Duration grace)
      throws Exception {
    try (Database source = Database.open(DatabaseSettings.inMemory());
        Connection connection = source.newConnection()) {
      // the columns a reader keys on; the reader's view gives the others as NULL
      String query =
          "SELECT '"
              + run
              + "' AS run_id, 'c.csv' AS client_source_path, i AS client_source_line FROM range("
              + rows
              + ") t(i)";
      return LakeTableVersions.write(connection, lake, TABLE, query, grace);
    }
  }

  private static List<Object> read(Database reader, String sql) throws Exception {
    try (Connection connection = reader.newConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return List.of(rows.getLong(1), String.valueOf(rows.getString(2)));
    }
  }

  @Test
  void aReaderSeesTheCommittedVersionWholeAndRefreshes() throws Exception {
    Path lake = lake();
    String query = "SELECT count(*), string_agg(DISTINCT run_id, ',') FROM request_attribution";
    try (Database reader = Lake.openReader(lake)) {
      assertThat(read(reader, query)).containsExactly(0L, "null"); // no version yet: empty
      LakeTableVersions.Written first = write(lake, "r1", 5, LakeTableVersions.DEFAULT_GRACE);
      assertThat(first.version().version()).isEqualTo(1);
      assertThat(first.version().rows()).isEqualTo(5);
      try (Connection connection = reader.newConnection()) {
        Lake.attachViews(connection, lake);
      }
      assertThat(read(reader, query)).containsExactly(5L, "r1");
      write(lake, "r2", 7, LakeTableVersions.DEFAULT_GRACE);
      assertThat(read(reader, query))
          .as("until refreshed, the version read")
          .containsExactly(5L, "r1");
      try (Connection connection = reader.newConnection()) {
        Lake.attachViews(connection, lake);
      }
      assertThat(read(reader, query)).containsExactly(7L, "r2");
      // the view has the schema's columns, in the table's order, whatever the file holds
      try (Connection connection = reader.newConnection();
          Statement statement = connection.createStatement();
          ResultSet rows = statement.executeQuery("FROM request_attribution LIMIT 0")) {
        assertThat(rows.getMetaData().getColumnName(1)).isNotBlank();
      }
    }
    try (Database reader = Lake.openReader(lake)) {
      assertThat(read(reader, query)).containsExactly(7L, "r2");
    }
    assertThat(LakeTableVersions.current(lake, TABLE).version()).isEqualTo(2);
  }

  @Test
  void viewsSqlNamesTheVersionsFile() throws Exception {
    Path lake = lake();
    assertThat(Lake.viewsSql(LakeSnapshot.scan(lake)))
        .contains("-- request_attribution: no version written yet");
    LakeTableVersions.Written written = write(lake, "r1", 3, LakeTableVersions.DEFAULT_GRACE);
    String views = Lake.viewsSql(LakeSnapshot.scan(lake));
    assertThat(views)
        .contains("CREATE OR REPLACE VIEW request_attribution AS SELECT * FROM read_parquet('")
        .contains(written.version().path(lake).toString());
    // what another engine does with it: a plain DuckDB runs it as is
    try (Connection connection = java.sql.DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      for (String line : views.split(";\n")) {
        if (!line.isBlank()) {
          statement.execute(line);
        }
      }
      try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM request_attribution")) {
        rows.next();
        assertThat(rows.getLong(1)).isEqualTo(3);
      }
    }
  }

  @Test
  void replacedVersionsGoAfterTheGracePeriodAndLeftoversOfACrashToo() throws Exception {
    Path lake = lake();
    write(lake, "r1", 1, Duration.ofMinutes(1));
    write(lake, "r2", 2, Duration.ofMinutes(1));
    assertThat(versionFiles(lake)).hasSize(2); // the replaced one stays for the grace period
    // a writer that crashed after its file's rename but before the pointer's, and one mid-COPY
    Path orphan =
        LakeTableVersions.directory(lake, TABLE)
            .resolve(String.format("%020d.%s.parquet", 9, "dead00000000"));
    Files.writeString(orphan, "half");
    Path temp = LakeDirectories.temp(lake, "versions." + TABLE);
    Files.writeString(temp, "half");
    FileTime old = FileTime.from(Instant.now().minusSeconds(3600));
    for (Path file : versionFiles(lake)) {
      Files.setLastModifiedTime(file, old);
    }
    Files.setLastModifiedTime(temp, old);
    LakeTableVersions.Written third = write(lake, "r3", 3, Duration.ofMinutes(1));
    assertThat(third.version().version()).isEqualTo(3);
    assertThat(third.replacedDeleted()).isEqualTo(1); // r1: replaced by r2 an hour ago
    assertThat(third.leftoversDeleted()).isEqualTo(2);
    assertThat(versionFiles(lake)).hasSize(2); // r2 (replaced just now) and r3
    assertThat(Files.exists(temp)).isFalse();
    try (Database reader = Lake.openReader(lake)) {
      assertThat(read(reader, "SELECT count(*), any_value(run_id) FROM request_attribution"))
          .containsExactly(3L, "r3");
    }
  }

  @Test
  void notALakeIsRefused() {
    assertThatThrownBy(() -> write(dir, "r1", 1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a tokentrace lake");
  }

  private static List<Path> versionFiles(Path lake) throws Exception {
    try (Stream<Path> files = Files.list(LakeTableVersions.directory(lake, TABLE))) {
      return files.toList();
    }
  }
}
