package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.TestQueries;
import dev.tokentrace.store.rows.DataQuality;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attribution of {@link HandComputedDataset}, every number computed by hand. One database per
 * class: each test reruns the attribution, which replaces the whole table.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class AttributionTest {
  private static final Offset<Double> EXACT = within(1e-9);

  private Database database;
  private Attributor attributor;

  @BeforeAll
  void load(@TempDir Path dir) throws Exception {
    database = Database.open(DatabaseSettings.inMemory());
    HandComputedDataset.load(database, dir);
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
  }

  @AfterAll
  void close() {
    database.close();
  }

  @Test
  void splitsEachMatchedRequestIntoItsComponents() {
    Map<String, RequestAttribution> byId = attribute(AttributionSettings.defaults());

    // r1: network_ttft = 60 - 3 - (5 + 40) = 12; network = 480 - 3 - (5 + 40 + 400) = 32
    assertComponents(byId.get("r1"), 3.0, 12.0, 32.0, 5.0, 40.0, 400.0, "decode");
    assertThat(byId.get("r1").mltMs()).isCloseTo((480.0 - 60.0) / 100, EXACT);
    assertThat(byId.get("r1").tpotMs()).isCloseTo(400.0 / 100, EXACT);
    // r2: no client queue recorded (0); network_ttft = 270 - 250 = 20; network = 360 - 330 = 30
    assertComponents(byId.get("r2"), 0.0, 20.0, 30.0, 200.0, 50.0, 80.0, "queue");
    assertThat(byId.get("r2").mltMs()).isCloseTo(90.0 / 50, EXACT);
    assertThat(byId.get("r2").tpotMs()).isCloseTo(80.0 / 50, EXACT);
    // r3: network_ttft = 330 - 302 = 28; network = 440 - 402 = 38
    assertComponents(byId.get("r3"), 0.0, 28.0, 38.0, 2.0, 300.0, 100.0, "prefill");
    assertThat(byId.get("r3").mltMs()).isCloseTo(110.0 / 20, EXACT);
    // r5: V0-style span, prefill = 80 - 20 = 60, decode = 580 - 80 = 500 (derived);
    // network_ttft = 100 - (20 + 60) = 20; network = 610 - 580 = 30
    assertComponents(byId.get("r5"), 0.0, 20.0, 30.0, 20.0, 60.0, 500.0, "decode");
    assertThat(byId.get("r5").serverDerived()).isTrue();
    assertThat(byId.get("r5").mltMs()).isCloseTo(510.0 / 24, EXACT); // client tokens
    assertThat(byId.get("r5").tpotMs()).isCloseTo(500.0 / 25, EXACT); // server tokens
    assertThat(byId.get("r5").tokenMismatch()).isTrue();

    for (String id : List.of("r1", "r2", "r3", "r5")) {
      RequestAttribution request = byId.get(id);
      assertThat(request.joinStatus()).as(id).isEqualTo("matched");
      assertThat(request.confidence()).as(id).isEqualTo("high");
      assertThat(request.included()).as(id).isTrue();
      assertThat(request.exclusion()).as(id).isNull();
      assertThat(request.suspect()).as(id).isFalse();
      assertThat(
              request.clientQueueMs()
                  + request.networkMs()
                  + request.queueMs()
                  + request.prefillMs()
                  + request.decodeMs())
          .as("components of %s add up to the client's e2e", id)
          .isCloseTo(request.clientE2eMs(), EXACT);
    }
    assertThat(byId.get("r1").serverDerived()).isFalse();
    assertThat(byId.get("r1").tokenMismatch()).isFalse();
  }

  @Test
  void flagsNegativeNetworkBeyondToleranceAsSuspectWithoutClamping() {
    RequestAttribution r4 = attribute(AttributionSettings.defaults()).get("r4");
    // network = 500 - (10 + 50 + 500) = -60 < -max(5, 1% of 500); network_ttft = 55 - 60 = -5 is
    // exactly at the tolerance, so not a reason
    assertThat(r4.networkMs()).isEqualTo(-60.0);
    assertThat(r4.networkTtftMs()).isEqualTo(-5.0);
    assertThat(r4.suspect()).isTrue();
    assertThat(r4.suspectReason()).isEqualTo("negative network_ms beyond tolerance");
    assertThat(r4.included()).isFalse();
    assertThat(r4.exclusion()).isEqualTo("suspect");
    assertThat(r4.dominant()).isEqualTo("decode");

    RequestAttribution tolerant = attribute(AttributionSettings.from(null, 12.0, null)).get("r4");
    assertThat(tolerant.suspect()).as("-60 is within 12% of 500").isFalse();
    assertThat(tolerant.included()).isTrue();

    RequestAttribution strict = attribute(AttributionSettings.from(1.0, 0.0, null)).get("r4");
    assertThat(strict.suspectReason())
        .isEqualTo(
            "negative network_ms beyond tolerance; negative network_ttft_ms beyond tolerance");
  }

  @Test
  void neverAttributesDuplicateKeysOnEitherSide() {
    attributor.run(AttributionSettings.defaults(), "test");
    List<RequestAttribution> requests = attributor.requests();
    List<RequestAttribution> duplicates =
        requests.stream().filter(r -> r.joinStatus().equals("duplicate")).toList();
    assertThat(duplicates)
        .extracting(
            RequestAttribution::requestId,
            RequestAttribution::clientRows,
            RequestAttribution::serverRows)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("r6", 1, 2),
            org.assertj.core.groups.Tuple.tuple("r11", 2, 1),
            org.assertj.core.groups.Tuple.tuple("r11", 2, 1));
    assertThat(duplicates)
        .allSatisfy(
            r -> {
              assertThat(r.networkMs()).isNull();
              assertThat(r.decodeMs()).isNull();
              assertThat(r.included()).isFalse();
              assertThat(r.exclusion()).isEqualTo("duplicate key");
              assertThat(r.confidence()).isNull();
            });
  }

  @Test
  void marksTextLogOnlyServersLowConfidenceWithoutInventingDurations() {
    RequestAttribution r7 = attribute(AttributionSettings.defaults()).get("r7");
    assertThat(r7.joinStatus()).isEqualTo("arrival_only");
    assertThat(r7.confidence()).isEqualTo("low");
    assertThat(r7.serverSource()).isEqualTo("text_log");
    assertThat(r7.engine()).isEqualTo("vllm");
    assertThat(r7.queueMs()).isNull();
    assertThat(r7.prefillMs()).isNull();
    assertThat(r7.decodeMs()).isNull();
    assertThat(r7.networkMs()).isNull();
    assertThat(r7.dominant()).isNull();
    assertThat(r7.exclusion()).isEqualTo("no server durations");
  }

  @Test
  void excludesWarmupErrorsAndClientOnlyRequestsNamingWhy() {
    Map<String, RequestAttribution> byId = attribute(AttributionSettings.defaults());
    assertThat(byId.get("w1").warmup()).isTrue();
    assertThat(byId.get("w1").exclusion()).isEqualTo("warm-up");
    assertThat(byId.get("w1").dominant()).as("computed, only not aggregated").isEqualTo("prefill");
    assertThat(byId.get("f1").exclusion()).isEqualTo("client error");
    assertThat(byId.get("f1").joinStatus()).isEqualTo("client_only");
    assertThat(byId.get("r8").joinStatus()).isEqualTo("client_only");
    assertThat(byId.get("r8").exclusion()).isEqualTo("no server record");
  }

  @Test
  void appliesTheWarmupRulePerRunAndConcurrency() {
    attributor.run(AttributionSettings.from(null, null, 2), "test");
    // concurrency 1 by start time: w1 (flagged anyway), r1; concurrency 8: r2, r3
    assertThat(attributor.requests().stream().filter(RequestAttribution::warmup))
        .extracting(RequestAttribution::requestId)
        .containsExactly("w1", "r1", "r2", "r3");
  }

  @Test
  void countsEverythingTheDataQualityNotesNeed() {
    AttributionResult result =
        attributor.run(AttributionSettings.defaults(), "tokentrace correlate");
    DataQuality quality = result.dataQuality();
    assertThat(quality)
        .usingRecursiveComparison()
        .ignoringFields("joinRate")
        .isEqualTo(
            new DataQuality(
                12, 10, 1, 1, 6, 1, 2, 3, 1, 1, 1, 0, 1, 1, 3, 4, 9, 3, 2, 1, 1, null, 0, 0, 0, 0,
                1, 1, 0, 0, 0));
    assertThat(quality.joinRate()).isCloseTo(10.0 / 12, EXACT);
    assertThat(quality.summary())
        .isEqualTo(
            "requests=12 matched=6 heuristic=0 attributed=4 arrival_only=1 client_only=2 duplicate=3"
                + " suspect=1 warmup=1 server_only=2 clock_flags=1 join_rate=83.3%");
    assertThat(result.runId()).startsWith("correlate-20260301T130000Z");
    String params =
        database
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery("SELECT params FROM runs WHERE run_id = :id")
                        .bind("id", result.runId())
                        .mapTo(String.class)
                        .one());
    assertThat(params)
        .isEqualTo(
            "{\"negative_tolerance_ms\":5.0,\"negative_tolerance_pct\":1.0,\"warmup_first_n\":0,"
                + "\"match\":\"id\",\"match_window_ms\":1000.0}");
  }

  @Test
  void listsUnmatchedRequestsOnBothSides() {
    attributor.run(AttributionSettings.defaults(), "test");
    List<Map<String, Object>> rows =
        database
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery(SqlCatalog.get(Queries.UNMATCHED_REQUESTS))
                        .bindNull("kind", java.sql.Types.VARCHAR)
                        .mapToMap()
                        .list());
    assertThat(rows)
        .extracting(row -> row.get("kind") + ":" + row.get("request_key"))
        .containsExactly(
            "arrival_only:r7",
            "client_only:f1",
            "client_only:r8",
            "duplicate:r11",
            "duplicate:r11",
            "duplicate:r6",
            "server_only:r10",
            "server_only:r9");
  }

  @Test
  void aggregatesPercentilesSharesAndDominantCountsOverIncludedRequests() {
    attributor.run(AttributionSettings.defaults(), "test");
    List<Map<String, Object>> all =
        database
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery(SqlCatalog.get(Queries.ATTRIBUTION_SUMMARY))
                        .bind("group_by", "all")
                        .bindNull("run_id", java.sql.Types.VARCHAR)
                        .bindNull("components", java.sql.Types.VARCHAR)
                        .mapToMap()
                        .list());
    assertThat(all)
        .extracting(row -> row.get("component"))
        .containsExactly("network", "client_queue", "queue", "prefill", "decode", "total");
    // included: r1, r2, r3, r5; shares over sum(client_e2e) = 1890
    assertSummary(all.get(0), 31.0, 36.2, 37.1, 37.82, 130.0 / 1890, 0);
    assertSummary(all.get(1), 0.0, 2.1, 2.55, 2.91, 3.0 / 1890, 0);
    assertSummary(all.get(2), 12.5, 146.0, 173.0, 194.6, 227.0 / 1890, 1);
    assertSummary(all.get(3), 55.0, 228.0, 264.0, 292.8, 450.0 / 1890, 1);
    assertSummary(all.get(4), 250.0, 470.0, 485.0, 497.0, 1080.0 / 1890, 2);
    assertSummary(all.get(5), 460.0, 571.0, 590.5, 606.1, 1.0, 4);
    assertThat(all).allSatisfy(row -> assertThat(row.get("requests")).isEqualTo(4L));

    List<Map<String, Object>> byConcurrency =
        database
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery(SqlCatalog.get(Queries.ATTRIBUTION_SUMMARY))
                        .bind("group_by", "concurrency")
                        .bindNull("run_id", java.sql.Types.VARCHAR)
                        .bindNull("components", java.sql.Types.VARCHAR)
                        .mapToMap()
                        .list());
    assertThat(byConcurrency.stream().filter(row -> row.get("component").equals("total")))
        .extracting(row -> row.get("group_value") + "=" + row.get("requests"))
        .containsExactly("1=2", "8=2");
  }

  @Test
  void computesCoreMetricsFromTheClientViewExcludingWarmupAndErrors() {
    attributor.run(AttributionSettings.defaults(), "test");
    Map<String, Map<String, Object>> all =
        database
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery(SqlCatalog.get(Queries.CORE_METRICS))
                        .bindNull("group_by", java.sql.Types.VARCHAR)
                        .mapToMap()
                        .list())
            .stream()
            .filter(row -> row.get("group_by").equals("all"))
            .collect(Collectors.toMap(row -> (String) row.get("metric"), row -> row));
    assertMetric(all.get("ftl"), 10, 65.0, 276.0, 303.0, 324.6, 110.0);
    assertMetric(all.get("e2e"), 10, 280.0, 511.0, 560.5, 600.1, 307.0);
    assertMetric(all.get("tpot"), 4, 4.5, 15.5, 17.75, 19.55, 7.65);
    assertThat((Double) all.get("mlt").get("p50_ms")).isCloseTo(10.357142857, within(1e-6));
  }

  @Test
  void appliesTheFiftyPercentFtlGrowthRule() {
    attributor.run(AttributionSettings.defaults(), "test");
    List<Map<String, Object>> levels =
        database
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery(SqlCatalog.get(Queries.CONCURRENCY_SENSITIVITY))
                        .bindNull("threshold_pct", java.sql.Types.DOUBLE)
                        .bindNull("group_by", java.sql.Types.VARCHAR)
                        .bindNull("run_id", java.sql.Types.VARCHAR)
                        .mapToMap()
                        .list());
    // concurrency 1: FTL [50, 50, 55, 60, 100] -> P50 55; concurrency 8: [40, 70, 75, 270, 330] ->
    // 75
    assertThat(levels).extracting(row -> row.get("concurrency")).containsExactly(1, 8);
    assertThat((Double) levels.get(1).get("ftl_p50_ms")).isEqualTo(75.0);
    assertThat((Double) levels.get(1).get("ftl_p50_growth_pct"))
        .isCloseTo(100.0 * (75.0 / 55 - 1), EXACT);
    assertThat(levels.get(1).get("queueing_bound")).isEqualTo(false);
  }

  @Test
  void recomputingReplacesThePreviousAttribution() {
    String runs = "SELECT count(*) FROM runs WHERE kind = 'correlate'";
    long before = TestQueries.one(database, Long.class, runs);
    attributor.run(AttributionSettings.defaults(), "test");
    attributor.run(AttributionSettings.defaults(), "test");
    assertThat(TestQueries.one(database, Long.class, "SELECT count(*) FROM request_attribution"))
        .isEqualTo(12L);
    assertThat(TestQueries.one(database, Long.class, runs)).isEqualTo(before + 2);
  }

  private Map<String, RequestAttribution> attribute(AttributionSettings settings) {
    attributor.run(settings, "test");
    return attributor.requests().stream()
        .collect(Collectors.toMap(RequestAttribution::requestId, r -> r, (first, second) -> first));
  }

  private static void assertComponents(
      RequestAttribution request,
      double clientQueue,
      double networkTtft,
      double network,
      double queue,
      double prefill,
      double decode,
      String dominant) {
    assertThat(request.clientQueueMs()).as("client_queue_ms").isCloseTo(clientQueue, EXACT);
    assertThat(request.networkTtftMs()).as("network_ttft_ms").isCloseTo(networkTtft, EXACT);
    assertThat(request.networkMs()).as("network_ms").isCloseTo(network, EXACT);
    assertThat(request.queueMs()).as("queue_ms").isCloseTo(queue, EXACT);
    assertThat(request.prefillMs()).as("prefill_ms").isCloseTo(prefill, EXACT);
    assertThat(request.decodeMs()).as("decode_ms").isCloseTo(decode, EXACT);
    assertThat(request.dominant()).as("dominant").isEqualTo(dominant);
  }

  private static void assertSummary(
      Map<String, Object> row,
      double p50,
      double p90,
      double p95,
      double p99,
      double share,
      long dominant) {
    assertThat((Double) row.get("p50_ms")).as("%s p50", row.get("component")).isCloseTo(p50, EXACT);
    assertThat((Double) row.get("p90_ms")).as("%s p90", row.get("component")).isCloseTo(p90, EXACT);
    assertThat((Double) row.get("p95_ms")).as("%s p95", row.get("component")).isCloseTo(p95, EXACT);
    assertThat((Double) row.get("p99_ms")).as("%s p99", row.get("component")).isCloseTo(p99, EXACT);
    assertThat((Double) row.get("share"))
        .as("%s share", row.get("component"))
        .isCloseTo(share, EXACT);
    assertThat(row.get("dominant_requests"))
        .as("%s dominant", row.get("component"))
        .isEqualTo(dominant);
  }

  private static void assertMetric(
      Map<String, Object> row,
      long requests,
      double p50,
      double p90,
      double p95,
      double p99,
      double mean) {
    assertThat(row.get("requests")).isEqualTo(requests);
    assertThat((Double) row.get("p50_ms")).isCloseTo(p50, EXACT);
    assertThat((Double) row.get("p90_ms")).isCloseTo(p90, EXACT);
    assertThat((Double) row.get("p95_ms")).isCloseTo(p95, EXACT);
    assertThat((Double) row.get("p99_ms")).isCloseTo(p99, EXACT);
    assertThat((Double) row.get("mean_ms")).isCloseTo(mean, EXACT);
  }
}
