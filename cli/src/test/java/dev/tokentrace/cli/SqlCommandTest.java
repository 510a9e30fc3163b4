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
            "mlt_vs_context",
            "network_outliers",
            "notices_near_slow",
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
            "concurrency_sensitivity: is it queueing or compute? Per run, FTL and MLT at each"
                + " concurrency level against the run's lowest level, with the seed's > 50% FTL"
                + " growth rule.\n    params: threshold_pct, group_by, run_id\n");
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
  void asksForAQueryWhenGivenNone() {
    SqlRuns.Result result = SqlRuns.run("sql");
    assertThat(result.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(result.err()).startsWith("sql: give a query NAME, a .sql file, -e SQL or --list");
  }
}
