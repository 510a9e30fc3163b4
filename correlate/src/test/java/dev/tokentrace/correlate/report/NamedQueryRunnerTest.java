package dev.tokentrace.correlate.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.correlate.db.Database;
import dev.tokentrace.correlate.db.DatabaseSettings;
import dev.tokentrace.correlate.db.SqlHeader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

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
        .startsWith(
            "| request_key | run_id  | concurrency | engine | instance | client_ttft_ms | client_e2e_ms |"
                + " client_queue_ms | network_ms | queue_ms | prefill_ms | decode_ms | dominant | output_tokens"
                + " | join_status | included | exclusion |")
        .contains(
            "| r5          | bench-1 |           1 | vllm   | gpu-0    |            100 |           610 |"
                + "               0 |         30 |       20 |         60 |       500 | decode   |            25"
                + " | matched     | true     |           |",
            "| r4          | bench-1 |           1 | vllm   | gpu-0    |             55 |           500 |"
                + "               0 |        -60 |       10 |         50 |       500 | decode   |            11"
                + " | matched     | false    | suspect   |")
        .endsWith("(2 rows)");
  }

  @Test
  void printsCsvWithFullPrecision() {
    assertThat(
            run("queries/unmatched_requests", Map.of("kind", "server_only"), QueryOutputFormat.CSV))
        .isEqualTo(
            "kind,request_key,request_id,run_id,engine,instance,source_path,source_line,client_rows,server_rows\n"
                + "server_only,r10,chatcmpl-r10,,vllm,gpu-0,logs/server.log,3,0,1\n"
                + "server_only,r9,chatcmpl-r9,,vllm,gpu-0,logs/otlp.jsonl,17,0,1\n");
  }

  @Test
  void printsJsonObjectsOnePerLine() {
    assertThat(
            run("concurrency_sensitivity", Map.of("threshold_pct", "30"), QueryOutputFormat.JSON))
        .isEqualTo(
            "[\n"
                + "  {\"concurrency\":1,\"requests\":5,\"ftl_p50_ms\":55.0,\"ftl_p95_ms\":92.0,"
                + "\"mlt_p50_ms\":16.666666666666668,\"mlt_p95_ms\":39.849999999999994,\"baseline_concurrency\":1,"
                + "\"ftl_p50_growth_pct\":0.0,\"queueing_bound\":false},\n"
                + "  {\"concurrency\":8,\"requests\":5,\"ftl_p50_ms\":75.0,\"ftl_p95_ms\":318.0,"
                + "\"mlt_p50_ms\":10.0,\"mlt_p95_ms\":12.142857142857142,\"baseline_concurrency\":1,"
                + "\"ftl_p50_growth_pct\":36.36363636363635,\"queueing_bound\":true}\n"
                + "]\n");
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
                + " attribution_summary, clock_offsets, concurrency_sensitivity, request_snapshots,"
                + " retried_requests, slowest_requests, unmatched_requests)");
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
            "unknown param 'limt' for queries/slowest_requests: did you mean 'limit'? (known: limit)")
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
            "queries/clock_offsets",
            "queries/concurrency_sensitivity",
            "queries/request_snapshots",
            "queries/retried_requests",
            "queries/slowest_requests",
            "queries/unmatched_requests");
    assertThat(NamedQueryRunner.list().get(5).description())
        .isEqualTo("which requests were slowest end to end, and where did their time go?");
  }

  @Test
  void parsesKeyValueParams() {
    assertThat(NamedQueryRunner.parseParams(List.of("limit=5", "kind=a=b")))
        .containsExactly(Map.entry("limit", "5"), Map.entry("kind", "a=b"));
    assertThatThrownBy(() -> NamedQueryRunner.parseParams(List.of("limit", "=5")))
        .hasMessage("--param 'limit' must be key=value\n--param '=5' must be key=value");
    assertThatThrownBy(() -> QueryOutputFormat.fromId("xml"))
        .hasMessage("unknown output format 'xml' (known: table, csv, json)");
  }

  private String run(String name, Map<String, String> params, QueryOutputFormat format) {
    StringBuilder out = new StringBuilder();
    runner.run(name, params, format, out);
    return out.toString();
  }
}
