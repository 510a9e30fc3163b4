package dev.tokentrace.parse.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.KvTransfer;
import dev.tokentrace.event.ServerHistogram;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Scrapes composed by us with the engines' metric names (docs/formats/metrics.md). */
final class MetricsLineParserTest {
  private static final ParseSettings SETTINGS = ParseSettings.of("vllm-0", 2026);
  private static final String M = "{model_name=\"m\"}";

  private static List<String> vllmScrape(String ts, int running, String kvName, int[] ttft) {
    return List.of(
        "# tokentrace scrape " + ts + " http://127.0.0.1:8000/metrics",
        "# HELP vllm:num_requests_running Number of requests in model execution batches.",
        "# TYPE vllm:num_requests_running gauge",
        "vllm:num_requests_running" + M + " " + running,
        "vllm:num_requests_waiting" + M + " 4",
        kvName + M + " 0.25",
        "vllm:prompt_tokens_total" + M + " 1000",
        "# TYPE vllm:time_to_first_token_seconds histogram",
        "vllm:time_to_first_token_seconds_bucket{le=\"0.1\",model_name=\"m\"} " + ttft[0],
        "vllm:time_to_first_token_seconds_bucket{le=\"0.5\",model_name=\"m\"} " + ttft[1],
        "vllm:time_to_first_token_seconds_bucket{le=\"+Inf\",model_name=\"m\"} " + ttft[2],
        "vllm:time_to_first_token_seconds_sum" + M + " " + ttft[3],
        "vllm:time_to_first_token_seconds_count" + M + " " + ttft[2]);
  }

  @Test
  void gaugesMakeASnapshotPerScrapeAndHistogramsADeltaFromTheSecondOn() {
    List<String> lines = new ArrayList<>();
    lines.addAll(
        vllmScrape("2026-12-01T10:00:00Z", 3, "vllm:gpu_cache_usage_perc", new int[] {0, 0, 0, 0}));
    lines.addAll(
        vllmScrape("2026-12-01T10:00:01Z", 5, "vllm:kv_cache_usage_perc", new int[] {2, 8, 10, 3}));
    Outcomes out = run(Engine.VLLM, lines);

    assertThat(out.events).hasSize(3);
    EngineStats first = (EngineStats) out.events.get(0);
    assertThat(first.engine()).isEqualTo(Engine.VLLM);
    assertThat(first.ts()).isEqualTo(Instant.parse("2026-12-01T10:00:00Z"));
    assertThat(first.running()).isEqualTo(3);
    assertThat(first.waiting()).isEqualTo(4);
    assertThat(first.kvUsagePct()).isEqualTo(25.0);
    assertThat(first.source().line()).isEqualTo(1);
    assertThat(((EngineStats) out.events.get(1)).running()).isEqualTo(5);
    ServerHistogram ttft = (ServerHistogram) out.events.get(2);
    assertThat(ttft.component()).isEqualTo("ttft");
    assertThat(ttft.metric()).isEqualTo("vllm:time_to_first_token_seconds");
    assertThat(ttft.intervalS()).isEqualTo(1.0);
    assertThat(ttft.count()).isEqualTo(10);
    assertThat(ttft.sumMs()).isEqualTo(3000.0);
    // rank 5 of 10 lies in (0.1, 0.5] holding observations 3..8: 0.1 + 0.4 * 3/6
    assertThat(ttft.p50Ms()).isCloseTo(300.0, org.assertj.core.data.Offset.offset(1e-9));
    // rank 9.9 lies in the +Inf bucket: the largest finite bound
    assertThat(ttft.p99Ms()).isEqualTo(500.0);
    assertThat(ttft.buckets()).isEqualTo("0.1:2,0.5:8,+Inf:10");
    assertThat(out.byLine)
        .containsEntry(2L, "ignored: " + MetricsLineParser.METADATA)
        .containsEntry(4L, "ignored: " + MetricsLineParser.FOLDED)
        .containsEntry(7L, "ignored: " + MetricsLineParser.UNUSED);
    assertThat(out.byLine).hasSize(lines.size());
  }

  private static List<String> sglangKvScrape(String ts, int transfers, int ms, int mb, int failed) {
    String labels = "model_name=\"m\",engine_type=\"prefill\",tp_rank=\"0\"";
    return List.of(
        "# tokentrace scrape " + ts,
        "# TYPE sglang:kv_transfer_latency_ms histogram",
        "sglang:kv_transfer_latency_ms_bucket{le=\"10.0\"," + labels + "} " + transfers / 2,
        "sglang:kv_transfer_latency_ms_bucket{le=\"25.0\"," + labels + "} " + transfers,
        "sglang:kv_transfer_latency_ms_bucket{le=\"+Inf\"," + labels + "} " + transfers,
        "sglang:kv_transfer_latency_ms_sum{" + labels + "} " + ms,
        "sglang:kv_transfer_latency_ms_count{" + labels + "} " + transfers,
        "sglang:kv_transfer_total_mb_bucket{le=\"+Inf\"," + labels + "} " + transfers,
        "sglang:kv_transfer_total_mb_sum{" + labels + "} " + mb,
        "sglang:kv_transfer_total_mb_count{" + labels + "} " + transfers,
        "sglang:num_transfer_failed_reqs_total{" + labels + "} " + failed);
  }

  @Test
  void sglangKvTransferMetricsBecomeOneIntervalRowOfThePrefillServer() {
    List<String> lines = new ArrayList<>();
    lines.addAll(sglangKvScrape("2026-12-01T10:00:00Z", 2, 30, 64, 0));
    lines.addAll(sglangKvScrape("2026-12-01T10:00:10Z", 6, 110, 192, 1));
    Outcomes out = run(Engine.SGLANG, lines);
    assertThat(out.events).hasSize(1);
    KvTransfer row = (KvTransfer) out.events.get(0);
    assertThat(row.side()).isEqualTo("prefill");
    assertThat(row.requestKey()).isNull();
    assertThat(row.intervalS()).isEqualTo(10.0);
    assertThat(row.transfers()).isEqualTo(4);
    assertThat(row.durationMs()).isEqualTo(20.0); // (110 - 30) ms / 4
    assertThat(row.p90Ms()).isNotNull().isBetween(10.0, 25.0); // in ms: the buckets' unit
    assertThat(row.mbPerTransfer()).isEqualTo(32.0); // (192 - 64) MB / 4
    assertThat(row.throughputMbS()).isEqualTo(1600.0); // 128 MB in 0.08 s
    assertThat(row.failed()).isEqualTo(1);
    assertThat(row.sourceKind()).isEqualTo(MetricsLineParser.KV_METRICS);
    assertThat(out.byLine).hasSize(lines.size());
  }

  @Test
  void aCounterThatWentDownCountsFromZeroAfterTheRestart() {
    List<String> lines = new ArrayList<>();
    lines.addAll(
        vllmScrape("2026-12-01T10:00:00Z", 1, "vllm:kv_cache_usage_perc", new int[] {5, 9, 9, 2}));
    lines.addAll(
        vllmScrape("2026-12-01T10:00:05Z", 1, "vllm:kv_cache_usage_perc", new int[] {1, 2, 3, 1}));
    ServerHistogram delta = (ServerHistogram) run(Engine.VLLM, lines).events.get(2);
    assertThat(delta.count()).isEqualTo(3);
    assertThat(delta.intervalS()).isEqualTo(5.0);
  }

  @Test
  void scrapesSavedWithoutMarkersSplitWhereASeriesRepeats() {
    String bucket = "sglang:e2e_request_latency_seconds_bucket{le=\"1.0\",model_name=\"m\"} ";
    String inf = "sglang:e2e_request_latency_seconds_bucket{le=\"+Inf\",model_name=\"m\"} ";
    String count = "sglang:e2e_request_latency_seconds_count" + M + " ";
    Outcomes out =
        run(
            Engine.SGLANG,
            List.of(
                "sglang:num_running_reqs" + M + " 7 1796119200000",
                "sglang:num_queue_reqs" + M + " 2 1796119200000",
                "sglang:token_usage" + M + " 0.5 1796119200000",
                bucket + "1 1796119200000",
                inf + "2 1796119200000",
                count + "2 1796119200000",
                "sglang:num_running_reqs" + M + " 8 1796119202000",
                bucket + "4 1796119202000",
                inf + "6 1796119202000",
                count + "6 1796119202000"));
    assertThat(out.events).hasSize(3);
    assertThat(((EngineStats) out.events.get(0)).kvUsagePct()).isEqualTo(50.0);
    EngineStats second = (EngineStats) out.events.get(1);
    assertThat(second.running()).isEqualTo(8);
    assertThat(second.source().line()).isEqualTo(7);
    ServerHistogram e2e = (ServerHistogram) out.events.get(2);
    assertThat(e2e.component()).isEqualTo("e2e");
    assertThat(e2e.count()).isEqualTo(4);
    assertThat(e2e.intervalS()).isEqualTo(2.0);
    assertThat(e2e.sumMs()).isNull(); // no _sum line in this scrape
  }

  @Test
  void readsVllmsNixlTransferTimeAsTheKvTransferComponent() {
    Outcomes out =
        run(
            Engine.VLLM,
            List.of(
                "# tokentrace scrape 2026-12-01T10:00:00Z",
                "vllm:nixl_xfer_time_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"m\"} 2",
                "vllm:nixl_xfer_time_seconds_sum{engine=\"0\",model_name=\"m\"} 0.05",
                "vllm:nixl_xfer_time_seconds_count{engine=\"0\",model_name=\"m\"} 2",
                "# tokentrace scrape 2026-12-01T10:00:10Z",
                "vllm:nixl_xfer_time_seconds_bucket{engine=\"0\",le=\"+Inf\",model_name=\"m\"} 5",
                "vllm:nixl_xfer_time_seconds_sum{engine=\"0\",model_name=\"m\"} 0.125",
                "vllm:nixl_xfer_time_seconds_count{engine=\"0\",model_name=\"m\"} 5"));
    assertThat(out.events).hasSize(1);
    ServerHistogram transfers = (ServerHistogram) out.events.get(0);
    assertThat(transfers.component()).isEqualTo("kv_transfer");
    assertThat(transfers.metric()).isEqualTo("vllm:nixl_xfer_time_seconds");
    assertThat(transfers.count()).isEqualTo(3);
    assertThat(transfers.sumMs()).isCloseTo(75.0, org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void readsTrtllmServeHistogramsUnderBothNames() {
    Outcomes out =
        run(
            Engine.TRTLLM,
            List.of(
                "# tokentrace scrape 2026-12-01T10:00:00Z",
                "request_queue_time_seconds_bucket{le=\"+Inf\"} 1",
                "request_queue_time_seconds_count 1",
                "# tokentrace scrape 2026-12-01T10:00:01Z",
                "request_queue_time_seconds_bucket{le=\"+Inf\"} 3",
                "request_queue_time_seconds_count 3",
                "# tokentrace scrape 2026-12-01T10:00:02Z",
                "trtllm_request_queue_time_seconds_bucket{le=\"+Inf\"} 3",
                "trtllm_request_queue_time_seconds_count 3"));
    assertThat(out.events).hasSize(2);
    ServerHistogram queue = (ServerHistogram) out.events.get(0);
    assertThat(queue.component()).isEqualTo("queue");
    assertThat(queue.count()).isEqualTo(2);
    assertThat(((ServerHistogram) out.events.get(1)).metric())
        .isEqualTo("trtllm_request_queue_time_seconds");
    assertThat(out.byLine.get(1L)).isEqualTo("ignored: " + MetricsLineParser.BASELINE);
  }

  @Test
  void rejectsBadLinesWithTheirReason() {
    Outcomes out =
        run(
            Engine.VLLM,
            List.of(
                "vllm:num_requests_running" + M + " NaN",
                "vllm:num_requests_waiting{model_name=\"m} 1",
                "vllm:e2e_request_latency_seconds_bucket{le=\"soon\"} 1",
                "vllm:kv_cache_usage_perc" + M + " -0.5",
                "# tokentrace scrape yesterday",
                "vllm:num_requests_running" + M + " 1"));
    assertThat(out.byLine)
        .containsEntry(1L, "rejected: metrics: vllm:num_requests_running is NaN")
        .containsEntry(2L, "rejected: metrics: label value not closed")
        .containsEntry(
            3L,
            "rejected: metrics: vllm:e2e_request_latency_seconds_bucket: bad or missing le label")
        .containsEntry(4L, "rejected: metrics: vllm:kv_cache_usage_perc is -0.5")
        .containsEntry(5L, "rejected: metrics: bad scrape marker time")
        .containsEntry(6L, "event engine_stats");
  }

  @Test
  void aSavedScrapeIsDetectedAsItsEngineAndReadThroughTheEngineParser() {
    List<String> lines =
        vllmScrape("2026-12-01T10:00:00Z", 3, "vllm:kv_cache_usage_perc", new int[] {1, 1, 1, 1});
    assertThat(Parsers.detect(lines, SETTINGS).engine()).contains(Engine.VLLM);
    Outcomes out = new Outcomes();
    LineParser parser = Parsers.create(Engine.VLLM, SETTINGS);
    long number = 1;
    for (String line : lines) {
      parser.parse(line, new SourcePosition("metrics.prom", number++, 0), out);
    }
    parser.finish(out);
    assertThat(out.events).hasSize(1);
    assertThat(out.byLine).hasSize(lines.size());
  }

  /**
   * Hostile numbers (docs/formats/metrics.md#hostile-values): a gauge of 2^63, a KV fraction of
   * 1e308 and histogram values beyond what a double counts are each rejected with their line; the
   * rest of the scrape and the next scrape are parsed, dated by their markers, and every line has
   * one outcome.
   */
  @Test
  void valuesOutOfRangeAreRejectedByLineAndTheRestIsParsed() {
    List<String> lines = new ArrayList<>();
    lines.addAll(
        vllmScrape("2026-12-01T10:00:00Z", 0, "vllm:kv_cache_usage_perc", new int[] {0, 0, 0, 0}));
    lines.set(3, "vllm:num_requests_running" + M + " 9223372036854775808");
    lines.set(5, "vllm:kv_cache_usage_perc" + M + " 1e308");
    lines.add("vllm:num_requests_waiting{model_name=\"n\"} 2147483647"); // sum passes an int
    List<String> second =
        new ArrayList<>(
            vllmScrape(
                "2026-12-01T10:00:01Z", 5, "vllm:kv_cache_usage_perc", new int[] {2, 8, 10, 3}));
    second.set(12, "vllm:time_to_first_token_seconds_count" + M + " 1e300");
    second.set(11, "vllm:time_to_first_token_seconds_sum" + M + " 1e308");
    lines.addAll(second);
    Outcomes out = run(Engine.VLLM, lines);

    assertThat(out.byLine).hasSize(lines.size());
    assertThat(out.byLine.get(4L))
        .isEqualTo(
            "rejected: metrics: vllm:num_requests_running is 9.223372036854776E18, more than a"
                + " request count holds (2147483647)");
    assertThat(out.byLine.get(6L)).contains("rejected:").contains("KV-cache fraction");
    assertThat(out.byLine.get(14L)).contains("rejected:").contains("sum passes 2147483647");
    assertThat(out.byLine.get(26L)).contains("rejected:").contains("sum of seconds");
    assertThat(out.byLine.get(27L)).contains("rejected:").contains("2^53");
    assertThat(out.byLine.values().stream().filter(o -> o.startsWith("rejected")).count())
        .isEqualTo(5);
    List<EngineStats> stats =
        out.events.stream()
            .filter(EngineStats.class::isInstance)
            .map(EngineStats.class::cast)
            .toList();
    assertThat(stats).hasSize(2);
    assertThat(stats.get(0).running()).isNull();
    assertThat(stats.get(0).waiting()).isEqualTo(4);
    assertThat(stats.get(0).kvUsagePct()).isNull();
    assertThat(stats.get(1).ts()).isEqualTo(Instant.parse("2026-12-01T10:00:01Z"));
    assertThat(stats.get(1).running()).isEqualTo(5);
    assertThat(stats.get(1).kvUsagePct()).isEqualTo(25.0);
  }

  private static Outcomes run(Engine engine, List<String> lines) {
    MetricsLineParser parser = new MetricsLineParser(engine, SETTINGS);
    Outcomes out = new Outcomes();
    long number = 1;
    for (String line : lines) {
      parser.parse(line, new SourcePosition("metrics.prom", number++, 0), out);
    }
    parser.finish(out);
    return out;
  }

  /** Outcomes by line; a line's events are listed once. */
  private static final class Outcomes implements ParseOutput {
    final Map<Long, String> byLine = new TreeMap<>();
    final List<EngineEvent> events = new ArrayList<>();

    @Override
    public void event(EngineEvent event) {
      events.add(event);
      byLine.putIfAbsent(event.source().line(), "event " + event.type());
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      put(position.line(), "ignored: " + rule);
    }

    @Override
    public void rejected(Rejection rejection) {
      put(rejection.position().line(), "rejected: " + rejection.reason());
    }

    private void put(long line, String outcome) {
      assertThat(byLine.put(line, outcome)).as("line " + line + " reported twice").isNull();
    }
  }
}
