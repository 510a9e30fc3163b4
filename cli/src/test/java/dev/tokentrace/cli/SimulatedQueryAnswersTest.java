package dev.tokentrace.cli;

import static dev.tokentrace.cli.ClientRows.number;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tokentrace.store.Database;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every root-cause query of {@code sql/queries/} run through {@code tokentrace sql} on simulated
 * runs whose answer is known: from the simulator's own files (client timings and truth.csv,
 * computed here independently of the SQL) or from its parameters (a batch of 4, 2 ms per 1000 KV
 * tokens, a 300 ms network episode). Five runs share one database, so a query that pooled runs
 * would fail.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class SimulatedQueryAnswersTest {
  private static final String SWEEP = "vllm-sweep";
  private static final String BASELINE = "vllm-baseline";
  private static final String CONTEXT = "vllm-context";
  private static final String WARMUP = "vllm-warmup";
  private static final String NETWORK = "vllm-network";

  /** The simulator's --max-batch of the sweep. */
  private static final int MAX_BATCH = 4;

  /** The simulator's --requests of the sweep: per level. */
  private static final int REQUESTS_PER_LEVEL = 12;

  /** The simulator's --step-per-kv-ktoken-ms of the context run. */
  private static final double MS_PER_KTOKEN = 2.0;

  private Path db;
  private Map<String, SampleScenarios.Scenario> scenarios;

  @BeforeAll
  void simulateAndLoad(@TempDir Path dir) {
    Path root = dir.resolve("samples");
    List<SampleScenarios.Scenario> simulated =
        List.of(
            ScenarioDatabase.simulate(
                root,
                "sweep",
                11,
                "--scenario concurrency-sweep --requests 12 --max-batch "
                    + MAX_BATCH
                    + " --iteration-log true"),
            ScenarioDatabase.simulate(root, "baseline", 12, "--scenario baseline --requests 12"),
            ScenarioDatabase.simulate(
                root,
                "context",
                13,
                "--concurrency 1 --requests 30 --prompt-tokens uniform:1000,16000"
                    + " --output-tokens fixed:64 --step-per-kv-ktoken-ms "
                    + MS_PER_KTOKEN),
            ScenarioDatabase.simulate(
                root,
                "warmup",
                14,
                "--scenario warmup --requests 16 --concurrency 1 --warmup-requests 4"),
            ScenarioDatabase.simulate(
                root,
                "network",
                15,
                "--concurrency 2 --requests 60 --output-tokens fixed:8 --prompt-tokens"
                    + " lognormal:128,0.3 --slow-network-at-s 1 --slow-network-duration-s 1"
                    + " --slow-network-extra-ms 300"));
    scenarios =
        simulated.stream()
            .collect(Collectors.toMap(SampleScenarios.Scenario::id, scenario -> scenario));
    try (Database database = ScenarioDatabase.open(dir, "simulated")) {
      simulated.forEach(scenario -> ScenarioDatabase.load(database, scenario));
      ScenarioDatabase.attribute(database);
    }
    db = dir.resolve("simulated.duckdb");
  }

  @Test
  void attributionSummaryGivesTheTruthsPercentilesSharesAndDominantCounts() {
    List<Map<String, String>> truth = counted(SWEEP);
    List<Map<String, Object>> rows =
        SqlRuns.rows(db, "attribution_summary", "group_by=run", "run_id=" + SWEEP);
    double e2e = truth.stream().mapToDouble(row -> number(row, "e2e_ms")).sum();
    for (String component : List.of("network", "queue", "prefill", "decode")) {
      Map<String, Object> row = component(rows, component);
      String column = component + "_ms";
      assertThat(SqlRuns.number(row, "requests")).isEqualTo(truth.size());
      assertThat(SqlRuns.number(row, "p50_ms"))
          .as(component + " P50")
          .isCloseTo(ClientRows.quantile(truth, r -> number(r, column), 0.5), within(0.01));
      assertThat(SqlRuns.number(row, "p95_ms"))
          .as(component + " P95")
          .isCloseTo(ClientRows.quantile(truth, r -> number(r, column), 0.95), within(0.01));
      assertThat(SqlRuns.number(row, "share"))
          .as(component + " share")
          .isCloseTo(truth.stream().mapToDouble(r -> number(r, column)).sum() / e2e, within(1e-4));
      assertThat(SqlRuns.number(row, "dominant_requests"))
          .as(component + " dominant in")
          .isEqualTo(truth.stream().filter(r -> r.get("dominant").equals(component)).count());
    }
  }

  @Test
  void concurrencySensitivityComparesLevelsWithinEachRunOnly() {
    List<Map<String, String>> client = ClientRows.read(scenarios.get(SWEEP).clientFile());
    List<Map<String, Object>> rows = SqlRuns.rows(db, "concurrency_sensitivity");
    List<Map<String, Object>> sweep = ofGroup(rows, SWEEP);
    assertThat(sweep).extracting(row -> row.get("concurrency")).containsExactly(1, 4, 8, 16);
    double baseline = ftlP50(client, 1);
    for (Map<String, Object> level : sweep) {
      int concurrency = ((Number) level.get("concurrency")).intValue();
      double ftl = ftlP50(client, concurrency);
      assertThat(SqlRuns.number(level, "ftl_p50_ms")).isCloseTo(ftl, within(1e-6));
      assertThat(SqlRuns.number(level, "ftl_p50_growth_pct"))
          .isCloseTo(100 * (ftl / baseline - 1), within(1e-6));
      // a server that runs 4 at once queues from concurrency 8 on: the seed's > 50% rule fires
      assertThat(level.get("queueing_bound")).as("level " + concurrency).isEqualTo(concurrency > 4);
      assertThat(level.get("rule_level")).isEqualTo(concurrency == 8);
      assertThat(level.get("levels")).isEqualTo(4);
    }
    assertThat(ofGroup(rows, BASELINE))
        .singleElement()
        .satisfies(
            row -> {
              assertThat(row.get("levels")).isEqualTo(1);
              assertThat(row.get("queueing_bound")).isEqualTo(false);
              assertThat(row.get("ftl_p50_growth_pct")).isEqualTo(0.0);
            });
  }

  @Test
  void slowestRequestsListTheSlowestWithTheServersStateWhenTheyArrived() {
    List<Map<String, String>> client = ClientRows.read(scenarios.get(SWEEP).clientFile());
    List<Map<String, Object>> rows =
        SqlRuns.rows(db, "slowest_requests", "limit=3", "run_id=" + SWEEP);
    assertThat(rows)
        .extracting(row -> row.get("request_key"))
        .containsExactlyElementsOf(ClientRows.top(client, row -> number(row, "e2e_ms"), 3));
    // the slowest arrive at levels above the server's batch of 4: it runs 4, the rest queue
    assertThat(rows)
        .allSatisfy(
            row -> {
              assertThat(((Number) row.get("concurrency")).intValue()).isGreaterThan(MAX_BATCH);
              assertThat(row.get("instance")).isEqualTo(SWEEP);
              assertThat(((Number) row.get("batch_size")).intValue()).isBetween(1, MAX_BATCH);
              // iteration lines stamp whole seconds: the nearest step is within a second
              assertThat(Math.abs(SqlRuns.number(row, "batch_offset_ms"))).isLessThan(1000);
            })
        .anySatisfy(
            row -> {
              // a level's requests arrive together: 4 run, the other 12 - 4 wait
              assertThat(Math.abs(SqlRuns.number(row, "stats_offset_ms"))).isLessThan(1000);
              assertThat(row.get("running")).isEqualTo(MAX_BATCH);
              assertThat(row.get("waiting")).isEqualTo(REQUESTS_PER_LEVEL - MAX_BATCH);
            });
  }

  @Test
  void mltVsContextFindsDecodeSlowingWithContext() {
    List<Map<String, String>> client = ClientRows.read(scenarios.get(CONTEXT).clientFile());
    double slope =
        1000
            * ClientRows.slope(
                client,
                row -> number(row, "prompt_tokens"),
                row ->
                    (number(row, "e2e_ms") - number(row, "ttft_ms"))
                        / (number(row, "output_tokens") - 1));
    List<Map<String, Object>> rows = SqlRuns.rows(db, "mlt_vs_context", "run_id=" + CONTEXT);
    assertThat(rows).isNotEmpty();
    assertThat(rows)
        .allSatisfy(
            row -> {
              assertThat(SqlRuns.number(row, "mlt_slope_ms_per_ktoken"))
                  .isCloseTo(slope, within(1e-6))
                  .isCloseTo(MS_PER_KTOKEN, within(0.2));
              assertThat(row.get("decode_bandwidth_bound")).isEqualTo(true);
            });
    assertThat(rows.stream().mapToLong(row -> ((Number) row.get("requests")).longValue()).sum())
        .isEqualTo(client.size());
    assertThat(SqlRuns.rows(db, "mlt_vs_context", "run_id=" + BASELINE))
        .allSatisfy(row -> assertThat(row.get("decode_bandwidth_bound")).isEqualTo(false));
  }

  @Test
  void prefillVsPromptFindsFtlGrowingLinearlyWithThePrompt() {
    List<Map<String, String>> client = ClientRows.read(scenarios.get(CONTEXT).clientFile());
    double slope =
        1000
            * ClientRows.slope(
                client, row -> number(row, "prompt_tokens"), row -> number(row, "ttft_ms"));
    List<Map<String, Object>> rows =
        SqlRuns.rows(db, "prefill_vs_prompt", "run_id=" + CONTEXT, "bucket_tokens=4000");
    assertThat(rows).extracting(row -> row.get("bucket_lo")).containsExactly(0, 4000, 8000, 12000);
    assertThat(rows)
        .allSatisfy(
            row -> {
              // the simulator's 0.05 ms per prompt token, plus the KV cost of the prefill steps
              assertThat(SqlRuns.number(row, "ftl_slope_ms_per_ktoken"))
                  .isCloseTo(slope, within(1e-6))
                  .isBetween(50.0, 60.0);
              assertThat(SqlRuns.number(row, "ftl_r2")).isGreaterThan(0.95);
              assertThat(row.get("prefill_bound")).isEqualTo(true);
            });
  }

  @Test
  void batchVsConcurrencyReadsTheServersRealBatchSize() {
    List<Map<String, Object>> rows = SqlRuns.rows(db, "batch_vs_concurrency", "run_id=" + SWEEP);
    assertThat(rows).extracting(row -> row.get("concurrency")).containsExactly(1, 4, 8, 16);
    for (Map<String, Object> row : rows) {
      int level = ((Number) row.get("concurrency")).intValue();
      assertThat(row.get("server_source")).isEqualTo("batch_step");
      // a closed-loop client keeps its level in flight (12 requests per level at most)
      assertThat(row.get("client_in_flight_max"))
          .as("level " + level)
          .isEqualTo(Math.min(level, REQUESTS_PER_LEVEL));
      assertThat(row.get("server_batch_max"))
          .as("level " + level)
          .isEqualTo(Math.min(level, MAX_BATCH));
      assertThat(row.get("batch_below_concurrency"))
          .as("level " + level)
          .isEqualTo(level > MAX_BATCH);
    }
  }

  @Test
  void queueTimelineShowsTheServerAroundTheSlowestRequest() {
    List<Map<String, Object>> rows =
        SqlRuns.rows(db, "queue_timeline", "run_id=" + SWEEP, "limit=1");
    List<Map<String, Object>> during =
        rows.stream().filter(row -> Boolean.TRUE.equals(row.get("during_request"))).toList();
    assertThat(rows).isNotEmpty().allSatisfy(row -> assertThat(row.get("slow_rank")).isEqualTo(1));
    assertThat(
            during.stream()
                .filter(row -> row.get("source").equals("batch_step"))
                .mapToInt(row -> ((Number) row.get("running")).intValue())
                .max())
        .hasValue(MAX_BATCH);
    assertThat(rows)
        .anySatisfy(row -> assertThat(SqlRuns.number(row, "offset_ms")).isNegative())
        .allSatisfy(
            row ->
                assertThat(SqlRuns.number(row, "offset_ms"))
                    .isGreaterThanOrEqualTo(-10_000 - 1000));
  }

  @Test
  void warmupEffectShowsTheWarmUpRequestsAgainstTheSteadyState() {
    List<Map<String, String>> client = ClientRows.read(scenarios.get(WARMUP).clientFile());
    List<Map<String, String>> warm =
        ClientRows.where(client, row -> row.get("warmup").equals("true"));
    List<Map<String, Object>> rows = SqlRuns.rows(db, "warmup_effect", "run_id=" + WARMUP);
    assertThat(rows)
        .extracting(row -> row.get("phase"))
        .containsExactly("warmup", "first_n", "steady");
    Map<String, Object> warmup = rows.get(0);
    assertThat(warmup.get("requests")).isEqualTo(warm.size());
    assertThat(warm).hasSize(4);
    assertThat(SqlRuns.number(warmup, "ftl_p50_ms"))
        .isCloseTo(ClientRows.quantile(warm, row -> number(row, "ttft_ms"), 0.5), within(1e-6));
    assertThat(warmup.get("slower_than_steady")).isEqualTo(true);
    assertThat(rows.get(1).get("slower_than_steady")).isEqualTo(false);
    assertThat(rows.get(1).get("requests")).isEqualTo(5);
  }

  @Test
  void networkOutliersFindTheRequestsOfTheSlowNetworkEpisode() {
    List<Map<String, String>> truth = counted(NETWORK);
    double median = ClientRows.quantile(truth, row -> number(row, "network_ms"), 0.5);
    List<String> episode =
        truth.stream()
            .filter(row -> number(row, "network_ms") - median > 100)
            .map(row -> row.get("request_id"))
            .sorted()
            .toList();
    List<Map<String, Object>> rows = SqlRuns.rows(db, "network_outliers", "run_id=" + NETWORK);
    assertThat(episode).isNotEmpty();
    assertThat(
            rows.stream()
                .filter(row -> row.get("kind").equals("slow"))
                .map(row -> (String) row.get("request_key"))
                .sorted())
        .containsExactlyElementsOf(episode);
  }

  @Test
  void unmatchedRequestsAreNoneWhenEveryRequestPaired() {
    assertThat(SqlRuns.rows(db, "unmatched_requests")).isEmpty();
  }

  /** The truth rows the aggregates count: final attempts, status ok, not warm-up. */
  private List<Map<String, String>> counted(String id) {
    return ClientRows.where(
        ClientRows.read(scenarios.get(id).dir().resolve("truth.csv")),
        row ->
            row.get("final").equals("true")
                && row.get("status").equals("ok")
                && row.get("warmup").equals("false"));
  }

  private static double ftlP50(List<Map<String, String>> client, int concurrency) {
    return ClientRows.quantile(
        ClientRows.where(client, row -> Integer.parseInt(row.get("concurrency")) == concurrency),
        row -> number(row, "ttft_ms"),
        0.5);
  }

  private static Map<String, Object> component(List<Map<String, Object>> rows, String component) {
    return rows.stream()
        .filter(row -> row.get("component").equals(component))
        .findFirst()
        .orElseThrow();
  }

  private static List<Map<String, Object>> ofGroup(List<Map<String, Object>> rows, String group) {
    return rows.stream().filter(row -> Objects.equals(row.get("group_value"), group)).toList();
  }
}
