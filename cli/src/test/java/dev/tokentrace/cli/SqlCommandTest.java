package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tokentrace sql}: the library listing, -e, .sql files, and refusing writes. */
final class SqlCommandTest {
  @TempDir Path dir;

  @Test
  void listsEveryQueryWithItsQuestionAndParameters() {
    SqlRuns.Result result = SqlRuns.run("sql", "--list");
    assertThat(result.code()).isZero();
    assertThat(result.out().lines().filter(line -> !line.startsWith(" ")))
        .extracting(line -> line.substring(0, line.indexOf(':')))
        .containsExactly(
            "attribution_summary",
            "batch_vs_concurrency",
            "clock_offsets",
            "concurrency_sensitivity",
            "gpu_contention",
            "mlt_vs_context",
            "network_outliers",
            "notices_near_slow",
            "pd_pairs",
            "prefill_vs_prompt",
            "queue_timeline",
            "request_snapshots",
            "retried_requests",
            "server_config",
            "slowest_requests",
            "unmatched_requests",
            "warmup_effect");
    assertThat(result.out())
        .contains(
            "concurrency_sensitivity: is it queueing or compute? Per run, TTFT (ftl_* columns)"
                + " and ITL (mlt_*) at each concurrency level against the run's lowest level,"
                + " with the +50% TTFT growth rule.\n    params: threshold_pct (DOUBLE, default"
                + " 50), group_by (VARCHAR, run | instance; default run), run_id (VARCHAR, default"
                + " every run)\n");
  }

  @Test
  void aMissingDbIsAUsageErrorNamingThePathAndIsNeverCreated() {
    Path typo = dir.resolve("tokentrce.duckdb");
    SqlRuns.Result result = SqlRuns.run("sql", "--db", typo.toString(), "-e", "SELECT 1");
    assertThat(result.code()).isEqualTo(2);
    assertThat(result.err()).contains("no DuckDB file at " + typo.toAbsolutePath());
    assertThat(typo).doesNotExist();
  }

  @Test
  void runsSqlFromTheCommandLineAndFromAFileButNeverAWrite() throws Exception {
    try (Database database = ScenarioDatabase.open(dir, "empty")) {
      assertThat(database.name()).endsWith("empty.duckdb");
    }
    String db = dir.resolve("empty.duckdb").toString();
    SqlRuns.Result select =
        SqlRuns.run(
            "sql", "--db", db, "-e", "SELECT count(*) AS runs FROM runs", "--format", "csv");
    assertThat(select.code()).as(select.err()).isZero();
    assertThat(select.out()).isEqualTo("runs\n0\n");

    Path file =
        ScenarioDatabase.write(
            dir.resolve("answer.sql"),
            "-- answer: the answer\n-- params:  :x (INTEGER, default 41)\n-- returns: answer\n"
                + "SELECT coalesce(CAST(:x AS INTEGER), 41) + 1 AS answer\n");
    SqlRuns.Result fromFile =
        SqlRuns.run("sql", "--db", db, file.toString(), "-p", "x=1", "--format", "csv");
    assertThat(fromFile.code()).as(fromFile.err()).isZero();
    assertThat(fromFile.out()).isEqualTo("answer\n2\n");

    SqlRuns.Result delete = SqlRuns.run("sql", "--db", db, "-e", "DELETE FROM runs");
    assertThat(delete.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(delete.err())
        .startsWith(
            "sql: -e: `sql` runs one read-only query (SELECT, WITH, FROM, DESCRIBE, SHOW) and never"
                + " changes the database: this is not a query");
    assertThat(Files.exists(file)).isTrue();
  }

  @Test
  void wideResultsPrintChosenColumnsOrOneLinePerColumn() throws Exception {
    try (Database database = ScenarioDatabase.open(dir, "empty")) {
      assertThat(database.name()).endsWith("empty.duckdb");
    }
    String db = dir.resolve("empty.duckdb").toString();
    String wide =
        "SELECT 'k1' AS request_key, 1.5::DOUBLE AS queue_ms, 2.5::DOUBLE AS decode_ms, 'x' AS note";

    SqlRuns.Result chosen =
        SqlRuns.run(
            "sql", "--db", db, "-e", wide, "--columns", "DECODE_MS,request_key", "--format", "csv");
    assertThat(chosen.code()).as(chosen.err()).isZero();
    assertThat(chosen.out()).isEqualTo("decode_ms,request_key\n2.5,k1\n");

    SqlRuns.Result globbed =
        SqlRuns.run("sql", "--db", db, "-e", wide, "--columns", "*_ms", "--format", "csv");
    assertThat(globbed.out()).isEqualTo("queue_ms,decode_ms\n1.5,2.5\n");

    SqlRuns.Result excluded =
        SqlRuns.run("sql", "--db", db, "-e", wide, "--exclude", "note,queue_ms", "--vertical");
    assertThat(excluded.code()).as(excluded.err()).isZero();
    assertThat(excluded.out())
        .isEqualTo("-[ RECORD 1 ]\nrequest_key | k1\ndecode_ms   | 2.5\n(1 row)\n");

    SqlRuns.Result typo = SqlRuns.run("sql", "--db", db, "-e", wide, "--columns", "decode");
    assertThat(typo.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(typo.err())
        .contains(
            "--columns decode: no such column (the result has: request_key, queue_ms, decode_ms,"
                + " note)");
  }

  @Test
  void asksForAQueryWhenGivenNone() {
    SqlRuns.Result result = SqlRuns.run("sql");
    assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).startsWith("sql: give a query NAME, a .sql file, -e SQL or --list");
  }
}
