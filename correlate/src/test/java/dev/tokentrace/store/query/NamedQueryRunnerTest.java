package dev.tokentrace.store.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.SqlHeader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class NamedQueryRunnerTest {
  private Database database;
  private NamedQueryRunner runner;

  @BeforeAll
  void attribute(@TempDir Path dir) throws Exception {
    database = Database.open(DatabaseSettings.inMemory());
    HandComputedDataset.load(database, dir);
    new Attributor(database, HandComputedDataset.CLOCK).run(AttributionSettings.defaults(), "test");
    runner = new NamedQueryRunner(database);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @Test
  void printsAnAlignedTableWithARowCount() {
    String out = run("slowest_requests", Map.of("limit", "2"), QueryOutputFormat.TABLE);
    assertThat(out.lines().toList())
        .hasSize(5)
        .endsWith("(2 rows)")
        .allSatisfy(line -> assertThat(line).doesNotContain("\t"));
    assertThat(out.lines().findFirst().orElseThrow())
        .startsWith(
            "| request_key | run_id  | concurrency | engine | instance | client_ttft_ms | client_e2e_ms |"
                + " client_queue_ms | network_ms | queue_ms | prefill_ms | decode_ms | dominant | output_tokens"
                + " | join_status | included | exclusion | mlt_ms ");
    assertThat(out)
        .contains(
            "| r5          | bench-1 |           1 | vllm   | gpu-0    |            100 |           610 |"
                + "               0 |         30 |       20 |         60 |       500 | decode   |            25"
                + " | matched     | true     |           |")
        .contains(
            "| r4          | bench-1 |           1 | vllm   | gpu-0    |             55 |           500 |"
                + "               0 |        -60 |       10 |         50 |       500 | decode   |            11"
                + " | matched     | false    | suspect   |");
  }

  @Test
  void printsCsvWithFullPrecision() {
    assertThat(
            run("queries/unmatched_requests", Map.of("kind", "server_only"), QueryOutputFormat.CSV))
        .isEqualTo(
            "kind,request_key,request_id,run_id,engine,instance,source_path,source_line,client_rows,"
                + "server_rows,status,reason\n"
                + "server_only,r10,chatcmpl-r10,,vllm,gpu-0,logs/server.log,3,0,1,,no client row\n"
                + "server_only,r9,chatcmpl-r9,,vllm,gpu-0,logs/otlp.jsonl,17,0,1,,no client row\n");
  }

  @Test
  void printsJsonObjectsOnePerLine() {
    assertThat(
            run("concurrency_sensitivity", Map.of("threshold_pct", "30"), QueryOutputFormat.JSON))
        .startsWith(
            "[\n"
                + "  {\"group_by\":\"run\",\"group_value\":\"bench-1\",\"concurrency\":1,\"requests\":5,"
                + "\"ftl_p50_ms\":55.0,\"ftl_p90_ms\":84.0,\"ftl_p95_ms\":92.0,")
        .contains(
            "{\"group_by\":\"run\",\"group_value\":\"bench-1\",\"concurrency\":8,\"requests\":5,"
                + "\"ftl_p50_ms\":75.0,")
        .contains(
            "\"baseline_concurrency\":1,\"ftl_p50_growth_pct\":36.36363636363635,"
                + "\"mlt_p50_growth_pct\":-40.0,\"queueing_bound\":true,\"rule_level\":true,"
                + "\"levels\":2,")
        .endsWith("}\n]\n")
        .hasLineCount(4);
  }

  @Test
  void runsAnyQueryGivenWithItsDirectory() {
    assertThat(run("sql/attribution/data_quality.sql", Map.of(), QueryOutputFormat.CSV))
        .startsWith("client_rows,client_ok_rows,")
        .contains(
            "\n12,10,1,1,6,1,2,3,1,1,1,0,1,1,3,4,9,3,2,1,1,0.8333333333333334,0,0,0,0,1,1,0,0,0\n");
  }

  @Test
  void suggestsTheNearestQueryName() {
    assertThatThrownBy(() -> run("slowest_request", Map.of(), QueryOutputFormat.TABLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "unknown query 'slowest_request': did you mean 'slowest_requests'? (known:"
                + " attribution_summary, batch_vs_concurrency, clock_offsets,"
                + " concurrency_sensitivity, gpu_contention, mlt_vs_context, network_outliers, notices_near_slow,"
                + " pd_pairs, prefill_vs_prompt, queue_timeline, request_snapshots, retried_requests,"
                + " server_config, slowest_requests, unmatched_requests, warmup_effect)");
  }

  @Test
  void reportsEveryParameterProblemAtOnce() {
    assertThatThrownBy(
            () ->
                run(
                    "slowest_requests",
                    Map.of("limt", "5", "limit", "many"),
                    QueryOutputFormat.TABLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "unknown param 'limt' for queries/slowest_requests: did you mean 'limit'? (known: limit,"
                + " run_id)")
        .hasMessageContaining("param limit: 'many' is not a integer");
  }

  @Test
  void refusesFilesThatChangeTheDatabase() {
    assertThatThrownBy(() -> run("attribution/per_request", Map.of(), QueryOutputFormat.TABLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "sql/attribution/per_request.sql changes the database and is not run by `sql`; use `correlate`");
  }

  @Test
  void listsTheLibraryWithItsQuestions() {
    assertThat(NamedQueryRunner.list())
        .extracting(SqlHeader::name)
        .containsExactly(
            "queries/attribution_summary",
            "queries/batch_vs_concurrency",
            "queries/clock_offsets",
            "queries/concurrency_sensitivity",
            "queries/gpu_contention",
            "queries/mlt_vs_context",
            "queries/network_outliers",
            "queries/notices_near_slow",
            "queries/pd_pairs",
            "queries/prefill_vs_prompt",
            "queries/queue_timeline",
            "queries/request_snapshots",
            "queries/retried_requests",
            "queries/server_config",
            "queries/slowest_requests",
            "queries/unmatched_requests",
            "queries/warmup_effect");
    assertThat(NamedQueryRunner.list().get(14).description())
        .isEqualTo(
            "which requests were slowest end to end, where did their time go, and what did the"
                + " server look like when they arrived?");
  }

  @Test
  void runsSqlGivenOnTheCommandLineWithTextParameters() {
    StringBuilder out = new StringBuilder();
    long rows =
        runner.runText(
            "-e",
            "SELECT request_key, client_e2e_ms FROM request_attribution WHERE request_key = :key",
            Map.of("key", "r5"),
            QueryOutputFormat.CSV,
            out);
    assertThat(rows).isEqualTo(1);
    assertThat(out.toString().lines()).containsExactly("request_key,client_e2e_ms", "r5,610");
  }

  @Test
  void runsASqlFileTypingItsParametersByItsHeader() {
    StringBuilder out = new StringBuilder();
    runner.runText(
        "top.sql",
        "-- top: the slowest requests\n-- params:  :n (INTEGER, default 1)\n-- returns: request_key\n"
            + "SELECT request_key FROM request_attribution ORDER BY client_e2e_ms DESC NULLS LAST,"
            + " request_key LIMIT :n",
        Map.of("n", "2"),
        QueryOutputFormat.CSV,
        out);
    assertThat(out.toString().lines()).containsExactly("request_key", "w1", "r5");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "DELETE FROM request_attribution",
        "INSERT INTO runs SELECT * FROM runs",
        "DROP TABLE request_attribution",
        "UPDATE request_attribution SET included = false",
        "COPY request_attribution TO 'out.csv'",
        "ATTACH 'other.duckdb' AS other",
        "CREATE TABLE x AS SELECT 1",
        "SELECT 1; DELETE FROM request_attribution",
        "-- a comment first\nDELETE FROM request_attribution"
      })
  void refusesSqlThatIsNotOneReadOnlyQuery(String sql) {
    assertThatThrownBy(
            () -> runner.runText("-e", sql, Map.of(), QueryOutputFormat.CSV, new StringBuilder()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("-e: `sql` runs one");
    assertThat(count()).isEqualTo(12);
  }

  @Test
  void aWriteHiddenInsideAQueryFailsInItsReadOnlyTransaction() {
    // DuckDB parses a DELETE inside a CTE as a SELECT; the read-only transaction still stops it
    assertThatThrownBy(
            () ->
                runner.runText(
                    "-e",
                    "WITH gone AS (DELETE FROM request_attribution RETURNING request_key)"
                        + " SELECT * FROM gone",
                    Map.of(),
                    QueryOutputFormat.CSV,
                    new StringBuilder()))
        .isInstanceOf(RuntimeException.class);
    assertThat(count()).isEqualTo(12);
  }

  @Test
  void describeAndShowAreQueries() {
    StringBuilder out = new StringBuilder();
    runner.runText("-e", "DESCRIBE runs", Map.of(), QueryOutputFormat.CSV, out);
    assertThat(out.toString()).startsWith("column_name,column_type,").contains("\nrun_id,VARCHAR,");
  }

  private long count() {
    return dev.tokentrace.store.TestQueries.one(
        database, Long.class, "SELECT count(*) FROM request_attribution");
  }

  @Test
  void parsesKeyValueParams() {
    assertThat(NamedQueryRunner.parseParams(List.of("limit=5", "kind=a=b")))
        .containsExactly(Map.entry("limit", "5"), Map.entry("kind", "a=b"));
    assertThatThrownBy(() -> NamedQueryRunner.parseParams(List.of("limit", "=5")))
        .hasMessage("--param 'limit' must be key=value\n--param '=5' must be key=value");
    assertThatThrownBy(() -> QueryOutputFormat.fromId("xml"))
        .hasMessage("unknown output format 'xml' (known: table, csv, json, vertical)");
  }

  private String run(String name, Map<String, String> params, QueryOutputFormat format) {
    StringBuilder out = new StringBuilder();
    runner.run(name, params, format, out);
    return out.toString();
  }
}
