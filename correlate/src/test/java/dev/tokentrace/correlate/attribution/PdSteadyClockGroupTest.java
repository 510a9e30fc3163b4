package dev.tokentrace.correlate.attribution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.groups.Tuple.tuple;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.TestQueries;
import dev.tokentrace.store.rows.ClockOffset;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * TensorRT-LLM disaggregated serving with two context and two generation servers behind one
 * disaggregated server, which spreads one client run round robin over the context servers
 * (docs/formats/pd.md#tensorrt-llm): every worker writes its perf metrics on the disaggregated
 * server's steady clock, both halves keyed by {@code ctx_request_id}. Neither context server alone
 * holds the run, but together they do: the run links to the group and every request pairs with its
 * own context server's half.
 */
final class PdSteadyClockGroupTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final int REQUESTS = 40;
  private static final double BOOT_BEFORE_T0_S = 3 * 3600.0;
  private static final AttributionSettings HEURISTIC =
      AttributionSettings.defaults().withMatch(MatchSettings.from("heuristic", null, null, null));

  private Database database;
  private Rows rows;
  private long line;

  @BeforeEach
  void open() {
    database = Database.open(DatabaseSettings.inMemory());
    rows = new Rows(database);
  }

  @AfterEach
  void close() {
    database.close();
  }

  /**
   * Request i: context server i % 2, generation server (i / 2 + i) % 2 (every pair serves); uplink
   * = downlink = 1.5 ms and 1 ms from the context server's answer to the generation server's
   * arrival, so network = 4 ms exactly.
   */
  private void run() {
    Random random = new Random(7);
    double sendS = 0;
    for (int i = 0; i < REQUESTS; i++) {
      sendS += 0.2 + 0.3 * random.nextDouble();
      double queue = 5 * random.nextDouble();
      double prefill = 20 + 60 * random.nextDouble();
      double transfer = 2 + 8 * random.nextDouble();
      double decodeQueue = 3 * random.nextDouble();
      double firstStep = 5 + 5 * random.nextDouble();
      double rest = 200 + 600 * random.nextDouble();
      String key = Long.toString((1L << 40) + i);
      String prefillServer = "prefill-" + (i % 2);
      String decodeServer = "decode-" + ((i / 2 + i) % 2);
      double prefillArrivalS = BOOT_BEFORE_T0_S + sendS + 0.0015;
      half(key, prefillServer, prefillArrivalS, queue, prefill, 0.0);
      double decodeArrivalS = prefillArrivalS + (queue + prefill + 1.0) / 1000.0;
      half(key, decodeServer, decodeArrivalS, transfer + decodeQueue, firstStep, rest);
      transfer(key, decodeServer, transfer);
      double ttft = queue + prefill + 1.0 + transfer + decodeQueue + firstStep + 3.0;
      rows.client(
          Rows.Client.sent(
              "r", "client-" + i, T0.plusNanos(Math.round(sendS * 1e9)), ttft, ttft + rest, 40));
    }
  }

  @Test
  void linksARunSpreadOverTwoContextServersToTheirGroupAndPairsEveryRequest() {
    run();
    Attributor attributor = new Attributor(database, HandComputedDataset.CLOCK);
    attributor.run(HEURISTIC, "test");

    assertThat(attributor.clockOffsets())
        .extracting(ClockOffset::runId, ClockOffset::instance, ClockOffset::flag)
        .containsExactly(tuple("r", "prefill-0+prefill-1", null));
    List<Map<String, Object>> attributed =
        TestQueries.rows(
            database,
            "SELECT request_id, join_status, instance, decode_instance, network_ms,"
                + " kv_transfer_source FROM request_attribution ORDER BY request_id");
    assertThat(attributed).hasSize(REQUESTS);
    for (Map<String, Object> row : attributed) {
      int i = Integer.parseInt(((String) row.get("request_id")).substring("client-".length()));
      assertThat(row.get("join_status")).as(row.toString()).isEqualTo("heuristic");
      assertThat(row.get("instance")).as(row.toString()).isEqualTo("prefill-" + (i % 2));
      assertThat(row.get("decode_instance"))
          .as(row.toString())
          .isEqualTo("decode-" + ((i / 2 + i) % 2));
      assertThat(row.get("kv_transfer_source")).isEqualTo("request");
      assertThat((Double) row.get("network_ms")).as(row.toString()).isCloseTo(4.0, within(1e-6));
    }
  }

  /** One half's /perf_metrics record, keyed by the context request id (as PerfMetricsMapper). */
  private void half(
      String key,
      String instance,
      double arrivalMonoS,
      double queue,
      double prefill,
      double decode) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO request_timing (engine, instance, ts, source_path, source_line,"
                            + " source_offset, request_id, request_key, queue_ms, prefill_ms,"
                            + " decode_ms, server_ttft_ms, e2e_ms, output_tokens, source_kind,"
                            + " arrival_mono_s) VALUES ('trtllm', :instance, NULL,"
                            + " 'perf_metrics.jsonl', :line, 0, :key, :key, :queue, :prefill,"
                            + " :decode, :ttft, :e2e, :out, 'perf_metrics', :mono)")
                    .bind("instance", instance)
                    .bind("line", ++line)
                    .bind("key", key)
                    .bind("queue", queue)
                    .bind("prefill", prefill)
                    .bind("decode", decode)
                    .bind("ttft", queue + prefill)
                    .bind("e2e", queue + prefill + decode)
                    .bind("out", decode > 0 ? 40 : 1)
                    .bind("mono", arrivalMonoS)
                    .execute());
  }

  /** The generation server's own record of the request's transfer (side decode). */
  private void transfer(String key, String instance, double ms) {
    database
        .jdbi()
        .useHandle(
            handle ->
                handle
                    .createUpdate(
                        "INSERT INTO kv_transfer (engine, instance, ts, source_path, source_line,"
                            + " source_offset, request_id, request_key, side, transfers,"
                            + " duration_ms, source_kind) VALUES ('trtllm', :instance, NULL,"
                            + " 'perf_metrics.jsonl', :line, 0, :key, :key, 'decode', 1, :ms,"
                            + " 'perf_metrics')")
                    .bind("instance", instance)
                    .bind("line", ++line)
                    .bind("key", key)
                    .bind("ms", ms)
                    .execute());
  }
}
