package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Results never change in silence: a report keeps the rules of the last correlate and says whether
 * it reuses or recomputes; loads that yield nothing and joins that match nothing are errors with a
 * hint; a client file loaded with the wrong options can be loaded again on purpose.
 */
final class SilentResultsTest {
  @TempDir Path dir;

  @Test
  void reportKeepsTheRulesOfTheLastCorrelateAndSaysWhenItRecomputes() throws IOException {
    String db = scenarioDatabase(true).toString();
    SqlRuns.Result correlate = SqlRuns.run("correlate", "--db", db, "--match", "heuristic");
    assertThat(correlate.code()).as(correlate.err()).isZero();
    assertThat(correlate.err())
        .contains("correlate: 30 report query result(s) stored with the attribution of");

    SqlRuns.Result report = SqlRuns.run("report", "--db", db, "--format", "json");
    assertThat(report.code()).as(report.err()).isZero();
    assertThat(report.err())
        .contains("report: the stored attribution's rules: --match heuristic")
        .contains("report: reusing the attribution of correlate-")
        .contains("report: reading the 30 percentile and evidence result(s) `correlate` stored");

    SqlRuns.Result byId = SqlRuns.run("report", "--db", db, "--match", "id", "--format", "json");
    assertThat(byId.code()).as(byId.err()).isZero();
    assertThat(byId.err())
        .contains("report: recomputing the attribution with --match id")
        .contains("its rules differ from the stored ones");
  }

  @Test
  void aJoinRateOfZeroIsAnErrorWithAHint() throws IOException {
    Path db = scenarioDatabase(false);
    Path client =
        ScenarioDatabase.write(
            dir.resolve("other.csv"),
            "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\n"
                + "nobody-1,2026-03-02T09:00:01Z,10,20,5\n"
                + "nobody-2,2026-03-02T09:00:02Z,10,20,5\n");
    SqlRuns.Result clients = SqlRuns.run("clients", "--db", db.toString(), client.toString());
    assertThat(clients.code()).as(clients.err()).isZero();

    SqlRuns.Result correlate = SqlRuns.run("correlate", "--db", db.toString());
    assertThat(correlate.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(correlate.err())
        .contains("join_rate=0.0%")
        .contains("correlate: join rate 0%: no client request ID matches")
        .contains("--request-id-prefix");
  }

  @Test
  void aClientLoadWithoutRowsIsAnErrorAndLeavesNoRun() throws IOException {
    Path db = dir.resolve("empty.duckdb");
    Path client =
        ScenarioDatabase.write(
            dir.resolve("bad.csv"),
            "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\nr1,yesterday,10,20,5\n");
    SqlRuns.Result clients = SqlRuns.run("clients", "--db", db.toString(), client.toString());

    assertThat(clients.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(clients.err())
        .contains("clients: no row loaded from the file")
        .contains("bad.csv:2: client: bad 'start_ts' value")
        .contains("hint: check the file's format");
    assertThat(csv(db, "SELECT count(*) AS runs FROM runs")).isEqualTo("runs\n0\n");
  }

  @Test
  void replaceLoadsAFileAgainWithOtherOptions() throws IOException {
    Path db = dir.resolve("replace.duckdb");
    Path client =
        ScenarioDatabase.write(
            dir.resolve("c.csv"),
            "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\n"
                + "r1,2026-03-02T09:00:01Z,10,20,5\n"
                + "r2,2026-03-02T09:00:02Z,10,20,5\n");
    String path = client.toString();
    assertThat(SqlRuns.run("clients", "--db", db.toString(), path).code()).isZero();

    SqlRuns.Result again =
        SqlRuns.run("clients", "--db", db.toString(), "--concurrency", "4", path);
    assertThat(again.err()).contains("file skipped: already loaded by run");
    SqlRuns.Result replaced =
        SqlRuns.run("clients", "--db", db.toString(), "--replace", "--concurrency", "4", path);
    assertThat(replaced.code()).as(replaced.err()).isZero();
    assertThat(replaced.err()).contains("loaded again: the rows run clients-");

    assertThat(csv(db, "SELECT count(*) AS n, min(concurrency) AS c FROM client_timing"))
        .isEqualTo("n,c\n2,4\n");
  }

  private static String csv(Path db, String sql) {
    SqlRuns.Result result = SqlRuns.run("sql", "--db", db.toString(), "-e", sql, "--format", "csv");
    assertThat(result.code()).as(result.err()).isZero();
    return result.out();
  }

  /** A simulated vLLM scenario's server events, with its client file loaded or not. */
  private Path scenarioDatabase(boolean withClients) throws IOException {
    SampleScenarios.Scenario scenario =
        ScenarioDatabase.simulate(dir.resolve("samples"), "quiet", 17, "--requests 12");
    try (Database database = ScenarioDatabase.open(dir, "scenario")) {
      if (withClients) {
        ScenarioDatabase.load(database, scenario);
      } else {
        EventTables.insert(database, ScenarioDatabase.parse(scenario));
      }
    }
    assertThat(Files.readString(scenario.clientFile(), UTF_8)).isNotEmpty();
    return dir.resolve("scenario.duckdb");
  }
}
