package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.TestQueries;
import dev.tokentrace.store.rows.ClockOffset;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The per-run clock offset estimate of sql/attribution/clock_offsets.sql, on a real DuckDB. */
final class ClockOffsetTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private Database database;
  private Rows rows;
  private Attributor attributor;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    rows = new Rows(database);
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
  }

  @AfterEach
  void close() {
    database.close();
  }

  /** {@code count} requests one second apart whose server arrival is {@code offset(i)} later. */
  private void pairs(String run, int count, java.util.function.IntToLongFunction offsetMicros) {
    for (int i = 0; i < count; i++) {
      Instant start = T0.plusSeconds(i);
      String key = run + "-" + i;
      rows.client(Rows.Client.sent(run, key, start, 200, 900, 20));
      rows.timing(Rows.Timing.span(key, start.plusNanos(offsetMicros.applyAsLong(i) * 1000), 20));
    }
  }

  private List<ClockOffset> estimate() {
    attributor.run(AttributionSettings.defaults(), "test");
    return attributor.clockOffsets();
  }

  @Test
  void takesTheMedianAndDropsOutliersByMad() {
    // 250 ms +-2 ms of jitter, then two pairs that belong to other requests (a retry, a wrong ID)
    pairs("bench", 20, i -> 250_000L + 1000L * (i % 5 - 2));
    rows.client(Rows.Client.sent("bench", "late", T0, 200, 900, 20));
    rows.timing(Rows.Timing.span("late", T0.plusSeconds(30), 20));
    rows.client(Rows.Client.sent("bench", "early", T0, 200, 900, 20));
    rows.timing(Rows.Timing.span("early", T0.minusSeconds(5), 20));

    ClockOffset clock = estimate().get(0);
    assertThat(clock.runId()).isEqualTo("bench");
    assertThat(clock.instance()).isEqualTo("gpu-0");
    assertThat(clock.clientClock()).isEqualTo("wall");
    assertThat(clock.serverSource()).isEqualTo("request_timing");
    assertThat(clock.pairs()).isEqualTo(22);
    assertThat(clock.usedPairs()).isEqualTo(20);
    assertThat(clock.outliers()).isEqualTo(2);
    assertThat(clock.offsetMs()).isCloseTo(250.0, within(1e-6));
    assertThat(clock.spreadMs()).as("1.4826 * MAD of 2,1,0,1,2 ms").isCloseTo(1.4826, within(1e-6));
    assertThat(clock.minMs()).isCloseTo(248.0, within(1e-6));
    assertThat(clock.maxMs()).isCloseTo(252.0, within(1e-6));
    assertThat(clock.flag()).isNull();
    assertThat(clock.zoneShiftMinutes()).isNull();
  }

  @Test
  void flagsAWrongLogZoneAsAWholeNumberOfHours() {
    // the server's log timestamps were parsed as UTC but written in UTC+3: every arrival 3 h late
    pairs("zoned", 10, i -> Duration.ofHours(3).toNanos() / 1000 + 40_000L + 1000L * (i % 3));
    ClockOffset clock = estimate().get(0);

    assertThat(clock.offsetMs()).isCloseTo(3 * 3_600_000.0 + 41.0, within(1e-6));
    assertThat(clock.zoneShiftMinutes()).isEqualTo(180);
    assertThat(clock.flag()).isEqualTo("zone");
    assertThat(clock.hint())
        .isEqualTo(
            "the clocks differ by 180 min: a log time zone (or date) set wrong; parse the logs with"
                + " the right zone");
    assertThat(attributor.dataQuality().zoneShifts()).isEqualTo(1);
  }

  @Test
  void recognizesHalfAndQuarterHourZonesAndUnsyncedHosts() {
    pairs("india", 5, i -> -Duration.ofMinutes(330).toNanos() / 1000 + 15_000L);
    pairs("nepal", 5, i -> Duration.ofMinutes(345).toNanos() / 1000 - 3_000L);
    pairs("drift", 5, i -> 4_500_000L + 100L * i);
    Map<String, ClockOffset> byRun = new java.util.HashMap<>();
    estimate().forEach(clock -> byRun.put(clock.runId(), clock));

    assertThat(byRun.get("india").zoneShiftMinutes()).isEqualTo(-330);
    assertThat(byRun.get("nepal").zoneShiftMinutes()).isEqualTo(345);
    assertThat(byRun.get("drift").zoneShiftMinutes()).isNull();
    assertThat(byRun.get("drift").flag()).isEqualTo("unsynced");
    assertThat(byRun.get("drift").offsetMs()).isCloseTo(4500.2, within(1e-6));
  }

  @Test
  void placesAMonotonicClientClockOnTheServerClock() {
    // vllm bench: perf_counter seconds since boot; the server's spans carry epoch arrival times
    for (int i = 0; i < 6; i++) {
      String key = "bench-1a2b3c4d-" + i;
      double sent = 353_399.5 + i;
      rows.client(
          Rows.Client.sent("vllm", key, T0, 300, 900, 20)
              .withMono(sent - 0.25, 250.0)
              .withKind("rebuilt"));
      rows.timing(Rows.Timing.span(key, T0.plusSeconds(i).plusMillis(3), 20));
    }
    ClockOffset clock = estimate().get(0);

    assertThat(clock.clientClock()).isEqualTo("monotonic");
    assertThat(clock.offsetMs())
        .as("epoch ms of T0 - 353399.5 s, plus 3 ms on the wire")
        .isCloseTo(T0.toEpochMilli() - 353_399_500.0 + 3.0, within(1e-3));
    assertThat(clock.flag()).as("no zone or sync judgement on an arbitrary origin").isNull();
    List<Map<String, Object>> aligned =
        TestQueries.rows(
            database,
            "SELECT request_key, aligned_start_ts FROM request_attribution ORDER BY request_key");
    // the row started 250 ms before it was sent (client queue): aligned = arrival - 3 ms wire -
    // 250 ms queue + the 3 ms the offset carries = arrival - 250 ms
    assertThat(String.valueOf(aligned.get(0).get("aligned_start_ts")))
        .isEqualTo("2026-03-01 11:59:59.753");
  }

  @Test
  void placesEachRequestAgainstTheQueueSnapshotBeforeItOnTheServerClock() {
    // a vllm bench run (monotonic clock) whose requests land at 12:00:03 and 12:00:12 server time
    for (int i = 0; i < 2; i++) {
      String key = "bench-x-" + i;
      rows.client(
          Rows.Client.sent("vllm", key, T0, 300, 900 + i, 20)
              .withMono(1000.0 + 9 * i, 0.0)
              .withKind("rebuilt"));
      rows.timing(Rows.Timing.span(key, T0.plusSeconds(3 + 9L * i), 20));
    }
    TestQueries.execute(
        database,
        "INSERT INTO engine_stats (engine, instance, ts, source_path, source_line, source_offset,"
            + " running, waiting, kv_usage_pct) VALUES"
            + " ('vllm', 'gpu-0', TIMESTAMP '2026-03-01 12:00:00', 'server.log', 1, 0, 4, 0, 10.0),"
            + " ('vllm', 'gpu-0', TIMESTAMP '2026-03-01 12:00:10', 'server.log', 2, 0, 16, 9, 95.0),"
            + " ('vllm', 'gpu-1', TIMESTAMP '2026-03-01 12:00:11', 'other.log', 1, 0, 1, 0, 1.0)");
    attributor.run(AttributionSettings.defaults(), "test");

    List<Map<String, Object>> snapshots =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery(
                            dev.tokentrace.store.SqlCatalog.get(
                                dev.tokentrace.store.Queries.REQUEST_SNAPSHOTS))
                        .bindNull("limit", java.sql.Types.INTEGER)
                        .mapToMap()
                        .list());
    assertThat(snapshots)
        .extracting(
            row -> row.get("request_key"),
            row -> String.valueOf(row.get("stats_ts")),
            row -> row.get("running"),
            row -> row.get("waiting"))
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("bench-x-1", "2026-03-01 12:00:10.0", 16, 9),
            org.assertj.core.groups.Tuple.tuple("bench-x-0", "2026-03-01 12:00:00.0", 4, 0));
  }

  @Test
  void centresWholeSecondTextLogTimesAndSkipsRetriedKeys() {
    for (int i = 0; i < 5; i++) {
      String key = "t-" + i;
      rows.client(Rows.Client.sent("text", key, T0.plusSeconds(i).plusMillis(100), 200, 900, 20));
      rows.arrival(key, "gpu-0", T0.plusSeconds(i)); // logged 12:00:0i, arrived 12:00:0i.100..999
    }
    rows.client(Rows.Client.sent("text", "again", T0.plusMillis(100), 200, 900, 20));
    rows.arrival("again", "gpu-0", T0.plusSeconds(9));
    rows.arrival("again", "gpu-0", T0.plusSeconds(20));
    ClockOffset clock = estimate().get(0);

    assertThat(clock.serverSource()).isEqualTo("request_arrived");
    assertThat(clock.pairs()).as("the retried key pairs with nothing").isEqualTo(5);
    assertThat(clock.offsetMs()).isCloseTo(400.0, within(1e-6));
  }

  @Test
  void estimatesEachInstanceOnItsOwnAndUsesItForItsRequests() {
    for (int i = 0; i < 5; i++) {
      rows.client(Rows.Client.sent("two", "a-" + i, T0.plusSeconds(i), 200, 900, 20));
      rows.timing(Rows.Timing.span("a-" + i, T0.plusSeconds(i).plusMillis(10), 20));
      rows.client(Rows.Client.sent("two", "b-" + i, T0.plusSeconds(i), 200, 900, 20));
      rows.timing(Rows.Timing.span("b-" + i, T0.plusSeconds(i).plusMillis(700), 20).on("gpu-1"));
    }
    assertThat(estimate())
        .extracting(ClockOffset::instance, ClockOffset::offsetMs)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("gpu-0", 10.0),
            org.assertj.core.groups.Tuple.tuple("gpu-1", 700.0));
    assertThat(
            TestQueries.rows(
                database,
                "SELECT DISTINCT instance, clock_offset_ms FROM request_attribution ORDER BY 1"))
        .containsExactly(
            Map.of("instance", "gpu-0", "clock_offset_ms", 10.0),
            Map.of("instance", "gpu-1", "clock_offset_ms", 700.0));
  }

  @Test
  void pairsEachKeyByItsEarliestArrivalOnOneInstanceElseByItsTextArrival() {
    // the rare shapes of a key the per-key table (request_keys.sql) names by counts and rowids
    for (int i = 0; i < 5; i++) {
      rows.client(Rows.Client.sent("mix", "one-" + i, T0.plusSeconds(i), 200, 900, 20));
      rows.timing(Rows.Timing.span("one-" + i, T0.plusSeconds(i).plusMillis(100), 20));
    }
    // two records with an arrival on one instance: the earliest arrival
    rows.client(Rows.Client.sent("mix", "twice", T0, 200, 900, 20));
    rows.timing(Rows.Timing.span("twice", T0.plusMillis(100), 20));
    rows.timing(Rows.Timing.span("twice", T0.plusMillis(300), 20).kind("sglang_meta"));
    // records on two instances: its one text-log arrival (and that arrival's echo in another file
    // of the instance is not a second arrival)
    rows.client(Rows.Client.sent("mix", "split", T0, 200, 900, 20));
    rows.timing(Rows.Timing.span("split", T0.plusMillis(100), 20));
    rows.timing(Rows.Timing.span("split", T0.plusMillis(100), 20).on("gpu-1"));
    rows.arrival("split", "gpu-0", T0.plusMillis(100));
    rows.arrival("split", "gpu-0", T0.plusMillis(150), "engine.log");
    // a second client row without a start time does not make the key ambiguous for the clock
    rows.client(Rows.Client.sent("mix", "unclocked", T0, 200, 900, 20));
    rows.client(
        new Rows.Client("mix", "unclocked", null, null, null, 200.0, 900.0, 100, 20, "ok", "sent"));
    rows.timing(Rows.Timing.span("unclocked", T0.plusMillis(100), 20));
    // sent twice with a start time: no pair
    rows.client(Rows.Client.sent("mix", "resent", T0, 200, 900, 20));
    rows.client(Rows.Client.sent("mix", "resent", T0.plusSeconds(1), 200, 900, 20));
    rows.timing(Rows.Timing.span("resent", T0.plusSeconds(40), 20));

    assertThat(estimate())
        .extracting(
            ClockOffset::instance,
            ClockOffset::serverSource,
            ClockOffset::pairs,
            ClockOffset::offsetMs)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("gpu-0", "mixed", 8, 100.0));
  }
}
