package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.TestQueries;
import dev.tokentrace.store.rows.ClockOffset;
import dev.tokentrace.store.rows.DataQuality;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TensorRT-LLM behind two benchmark runs: /perf_metrics records keyed by the engine's counter (0,
 * 1, 2, ... on every server) with arrivals on each server's steady clock. Keys are per instance;
 * with --match heuristic the time series put each run on its instance's clock and pair every
 * request.
 */
final class SteadyClockMatchTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final int REQUESTS = 30;
  private static final AttributionSettings HEURISTIC =
      AttributionSettings.defaults().withMatch(MatchSettings.from("heuristic", null, null, null));

  private Database database;
  private Rows rows;
  private Attributor attributor;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    rows = new Rows(database);
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
    // run a on trt-0 (booted 5 h before T0), run b on trt-1 (booted 2 h before), at the same time
    benchmark("a", "trt-0", 5 * 3600.0, 21);
    benchmark("b", "trt-1", 2 * 3600.0, 22);
  }

  @AfterEach
  void close() {
    database.close();
  }

  /**
   * {@value #REQUESTS} requests of run {@code name}: client IDs the server ignores, the server's
   * counter 0, 1, ...; uplink = downlink = 1.5 ms, so network = 3 ms exactly.
   */
  private void benchmark(String name, String instance, double bootBeforeT0S, long seed) {
    Random random = new Random(seed);
    double sendS = 0;
    for (int i = 0; i < REQUESTS; i++) {
      sendS += 0.25 + 0.35 * random.nextDouble();
      double queue = 10 * random.nextDouble();
      double prefill = 20 + 60 * random.nextDouble();
      double decode = 200 + 600 * random.nextDouble();
      Instant start = T0.plusNanos(Math.round(sendS * 1e9));
      rows.client(
          Rows.Client.sent(
              name, name + "-" + i, start, queue + prefill + 3, queue + prefill + decode + 3, 40));
      rows.steady(
          Integer.toString(i), instance, bootBeforeT0S + sendS + 0.0015, queue, prefill, decode);
    }
  }

  @Test
  void countsEngineCountersPerInstanceWithoutCallingThemDuplicates() {
    attributor.run(AttributionSettings.defaults(), "test");

    assertThat(attributor.requests())
        .allSatisfy(request -> assertThat(request.joinStatus()).isEqualTo("client_only"));
    DataQuality quality = attributor.dataQuality();
    assertThat(quality.duplicateServerKeys()).as("0..29 on two servers are 60 requests").isZero();
    assertThat(quality.serverOnlyKeys()).isEqualTo(2L * REQUESTS);
    assertThat(quality.clockTimeSeries()).as("estimated for --match heuristic only").isZero();
  }

  @Test
  void alignsEachRunWithItsInstanceAndPairsEveryRequest() {
    attributor.run(HEURISTIC, "test");

    assertThat(attributor.clockOffsets())
        .extracting(ClockOffset::runId, ClockOffset::instance, ClockOffset::flag)
        .containsExactly(tuple("a", "trt-0", null), tuple("b", "trt-1", null));
    assertThat(attributor.clockOffsets())
        .allSatisfy(
            clock -> {
              assertThat(clock.timeSeries()).isTrue();
              assertThat(clock.serverClock()).isEqualTo("steady");
              assertThat(clock.fitMs()).isNotNull();
              assertThat(clock.serverRequests()).isEqualTo(REQUESTS);
            });
    List<Map<String, Object>> clocks =
        TestQueries.rows(
            database,
            "SELECT run_id, instance, method, server_clock, offset_ms, pairs, client_requests,"
                + " server_requests FROM clock_offsets ORDER BY run_id");
    assertThat(clocks)
        .extracting(
            row -> row.get("method"), row -> row.get("server_clock"), row -> row.get("pairs"))
        .containsOnly(tuple("time_series", "steady", REQUESTS));
    // steady ms - epoch ms of the send: boot offset + the 1.5 ms uplink
    assertThat((Double) clocks.get(0).get("offset_ms"))
        .isCloseTo(5 * 3_600_000.0 - T0.toEpochMilli() + 1.5, within(0.01));

    for (RequestAttribution request : attributor.requests()) {
      String[] name = request.requestId().split("-");
      assertThat(request.joinStatus()).as(request.requestId()).isEqualTo("heuristic");
      assertThat(request.confidence()).isEqualTo("heuristic");
      assertThat(request.matchMethod()).isEqualTo("heuristic");
      assertThat(request.instance()).isEqualTo(name[0].equals("a") ? "trt-0" : "trt-1");
      assertThat(request.networkMs()).as(request.requestId()).isCloseTo(3.0, within(1e-6));
      assertThat(request.included()).isTrue();
    }
    assertThat(
            TestQueries.rows(
                database,
                "SELECT count(*) AS wrong FROM request_attribution"
                    + " WHERE server_request_id <> split_part(request_id, '-', 2)"))
        .containsExactly(Map.of("wrong", 0L));
    DataQuality quality = attributor.dataQuality();
    assertThat(quality.heuristicRows()).isEqualTo(2L * REQUESTS);
    assertThat(quality.serverOnlyKeys()).isZero();
    assertThat(quality.clockTimeSeries()).isEqualTo(2);
  }

  @Test
  void neverJoinsAnEngineCounterByIdEvenWhenAClientSentTheSameKey() {
    // a client whose IDs are plain numbers: "7" is not TensorRT-LLM's request 7
    rows.client(Rows.Client.sent("numbers", "7", T0.plusSeconds(3600), 100, 900, 40));
    attributor.run(AttributionSettings.defaults(), "test");

    RequestAttribution seven =
        attributor.requests().stream()
            .filter(request -> request.requestId().equals("7"))
            .findFirst()
            .orElseThrow();
    assertThat(seven.joinStatus()).isEqualTo("client_only");
    assertThat(attributor.dataQuality().serverOnlyKeys()).isEqualTo(2L * REQUESTS);
  }
}
