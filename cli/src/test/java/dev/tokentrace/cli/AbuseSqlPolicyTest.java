package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue [3.2] item 7: {@code tokentrace sql} runs the user's SQL, and DuckDB's SQL can read any
 * file the process can ({@code read_text}, {@code glob}, {@code read_csv}, a path as a table). By
 * default it reads only the database and the lake; {@code --allow-path} opens one more path
 * (docs/privacy.md#sql-file-access). Every refusal is a usage error (exit 2) saying why.
 */
final class AbuseSqlPolicyTest {
  @TempDir Path dir;
  private Path db;

  @BeforeEach
  void database() {
    db = dir.resolve("t.duckdb");
    Database.open(DatabaseSettings.file(db)).close();
  }

  @Test
  void theUsersSqlReadsNoOtherFile() throws Exception {
    Path outside = Files.writeString(dir.resolve("outside.csv"), "a,b\n1,2\n", UTF_8);
    Path copy = dir.resolve("copy.csv");
    List<String> hostile =
        List.of(
            "SELECT * FROM read_text('/etc/shadow')",
            "SELECT * FROM read_text('/etc/passwd')",
            "SELECT * FROM glob('/root/*')",
            "SELECT * FROM read_csv('/etc/passwd')",
            "SELECT * FROM '" + outside + "'",
            "SELECT * FROM read_csv('" + outside + "')",
            "SELECT * FROM read_blob('/etc/hostname')",
            "SELECT * FROM read_text('" + dir + "/../" + dir.getFileName() + "/outside.csv')");
    for (String sql : hostile) {
      SqlRuns.Result result = SqlRuns.run("sql", "--db", db.toString(), "-e", sql);
      assertThat(result.code()).as(sql + "\n" + result.err()).isEqualTo(ExitCodes.USAGE);
      assertThat(result.err())
          .as(sql)
          .contains("reads only the database, the lake and the paths given with --allow-path")
          .contains("Permission Error");
      assertThat(result.out()).doesNotContain("root:");
    }
    List<String> notQueries =
        List.of(
            "COPY (SELECT 1) TO '" + copy + "'",
            "ATTACH '" + dir.resolve("other.duckdb") + "' AS other",
            "INSTALL httpfs",
            "LOAD httpfs",
            "SET enable_external_access = true",
            "SELECT 1; COPY (SELECT 1) TO '" + copy + "'");
    for (String sql : notQueries) {
      SqlRuns.Result result = SqlRuns.run("sql", "--db", db.toString(), "-e", sql);
      assertThat(result.code()).as(sql + "\n" + result.err()).isEqualTo(ExitCodes.USAGE);
    }
    assertThat(copy).doesNotExist();
    assertThat(dir.resolve("other.duckdb")).doesNotExist();
  }

  @Test
  void namedQueriesAndSqlOverTheDatabaseStillRun() {
    SqlRuns.Result named = SqlRuns.run("sql", "--db", db.toString(), "server_config");
    assertThat(named.code()).as(named.err()).isZero();
    SqlRuns.Result adHoc =
        SqlRuns.run(
            "sql",
            "--db",
            db.toString(),
            "--format",
            "csv",
            "-e",
            "SELECT count(*) AS n FROM server_notice");
    assertThat(adHoc.code()).as(adHoc.err()).isZero();
    assertThat(adHoc.out()).isEqualTo("n\n0\n");
  }

  @Test
  void allowPathOpensThatPathOnly() throws Exception {
    Path allowed = Files.writeString(dir.resolve("allowed.csv"), "a,b\n1,2\n", UTF_8);
    Path other = Files.writeString(dir.resolve("other.csv"), "a,b\n3,4\n", UTF_8);
    Path folder = Files.createDirectories(dir.resolve("folder"));
    Files.writeString(folder.resolve("f.csv"), "a,b\n5,6\n", UTF_8);

    SqlRuns.Result file =
        SqlRuns.run(
            "sql",
            "--db",
            db.toString(),
            "--allow-path",
            allowed.toString(),
            "--format",
            "csv",
            "-e",
            "SELECT b FROM read_csv('" + allowed + "')");
    assertThat(file.code()).as(file.err()).isZero();
    assertThat(file.out()).isEqualTo("b\n2\n");
    SqlRuns.Result refused =
        SqlRuns.run(
            "sql",
            "--db",
            db.toString(),
            "--allow-path",
            allowed.toString(),
            "-e",
            "SELECT b FROM read_csv('" + other + "')");
    assertThat(refused.code()).as(refused.err()).isEqualTo(ExitCodes.USAGE);
    SqlRuns.Result inFolder =
        SqlRuns.run(
            "sql",
            "--db",
            db.toString(),
            "--allow-path",
            folder.toString(),
            "--format",
            "csv",
            "-e",
            "SELECT b FROM read_csv('" + folder.resolve("f.csv") + "')");
    assertThat(inFolder.code()).as(inFolder.err()).isZero();
    assertThat(inFolder.out()).isEqualTo("b\n6\n");
    SqlRuns.Result missing =
        SqlRuns.run(
            "sql",
            "--db",
            db.toString(),
            "--allow-path",
            dir.resolve("nope").toString(),
            "-e",
            "SELECT 1");
    assertThat(missing.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(missing.err()).contains("nope: no such file or directory");
  }

  @Test
  void theLakeIsReadAndNothingElse() throws Exception {
    Path lake = dir.resolve("lake");
    Instant ts = Instant.parse("2026-03-02T09:00:00Z");
    List<EngineEvent> events =
        List.of(
            new ServerNotice(
                Engine.VLLM,
                "gpu-0",
                ts,
                new SourcePosition("v.log", 1, 0),
                "WARNING",
                ServerNotice.Kind.WARNING,
                "slow"));
    try (LakeFixture writer = new LakeFixture(lake)) {
      writer.commit(events);
    }

    SqlRuns.Result count =
        SqlRuns.run(
            "sql",
            "--lake",
            lake.toString(),
            "--format",
            "csv",
            "-e",
            "SELECT count(*) AS n FROM server_notice");
    assertThat(count.code()).as(count.err()).isZero();
    assertThat(count.out()).isEqualTo("n\n1\n");
    SqlRuns.Result named = SqlRuns.run("sql", "--lake", lake.toString(), "server_config");
    assertThat(named.code()).as(named.err()).isZero();
    SqlRuns.Result outside =
        SqlRuns.run(
            "sql", "--lake", lake.toString(), "-e", "SELECT * FROM read_text('/etc/passwd')");
    assertThat(outside.code()).as(outside.err()).isEqualTo(ExitCodes.USAGE);
    assertThat(outside.err()).contains("--allow-path");
  }
}
