package dev.tokentrace.report.render.markdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.report.analysis.ReportAnalysis;
import dev.tokentrace.report.load.ReportDataLoader;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.render.html.HtmlReportWriter;
import dev.tokentrace.report.render.json.JsonReportWriter;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.TestQueries;
import dev.tokentrace.store.rows.ClockOffset;
import dev.tokentrace.store.rows.DataQuality;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class MarkdownReportWriterTest {
  @TempDir Path dir;

  @Test
  void reportsTheHandComputedRunSectionBySection() throws Exception {
    String report;
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      HandComputedDataset.load(database, dir);
      report = render(database, AttributionSettings.defaults());
    }
    assertThat(report)
        .startsWith(
            "# tokentrace report\n\nDatabase `:memory:`, generated 2026-03-01T13:00:00Z. Suspect pairs:"
                + " network below -max(5 ms, 1% of\nthe client time). Warm-up: the client's flag.\n");
    assertThat(sectionOrder(report))
        .containsExactly(
            "## Environment",
            "## Core metrics",
            "### By run and concurrency level (ms)",
            "## Baseline comparison",
            "## Latency attribution",
            "### Shares by concurrency",
            "## Bottleneck",
            "## Data quality",
            "## Findings by run",
            "## Slowest requests",
            "## GPU and co-tenants",
            "## Suggestions",
            "## Reproducibility");
    assertThat(report)
        .contains(
            "## GPU and co-tenants\n\nNo GPU telemetry was loaded (nvidia-smi, DCGM exporter):")
        .contains("No /metrics histograms were loaded (`tokentrace scrape` or a saved scrape)");
    assertThat(report)
        .contains(
            "- `gpu-0`: vllm, 2 files, 10 per-request records (otlp), 3 text-log arrivals;"
                + " 2026-03-01T12:00:07Z\n  to 2026-03-01T12:00:30Z.\n")
        .contains(
            "- `bench-1`: 1 csv file, 12 requests (1 warm-up, 1 with errors), concurrency 1,8, served"
                + " by `gpu-0`;\n  4 attributed, from client+engine.\n")
        .contains(
            "| metric        | requests | P50 ms | P90 ms | P95 ms | P99 ms | mean ms |\n"
                + "| ------------- | -------: | -----: | -----: | -----: | -----: | ------: |\n"
                + "| TTFT          |       10 |   65.0 |  276.0 |  303.0 |  324.6 |   110.0 |\n"
                + "| ITL           |       10 |   10.4 |   23.6 |   34.0 |   42.4 |    13.3 |\n"
                + "| TPOT (server) |        4 |    4.5 |   15.5 |   17.7 |   19.5 |     7.7 |\n"
                + "| E2E           |       10 |  280.0 |  511.0 |  560.5 |  600.1 |   307.0 |\n")
        .contains("never E2E / tokens, which folds TTFT in")
        .contains(
            "`bench-1` (2 levels): 1.1 req/s, 27.3 output tokens/s over 9.2 s.\n\n"
                + "| level | metric | requests |  P50 |   P90 |   P95 | change | req/s | out tok/s |\n"
                + "| ----: | ------ | -------: | ---: | ----: | ----: | -----: | ----: | --------: |\n"
                + "|     1 | TTFT   |        5 | 55.0 |  84.0 |  92.0 |   base |  0.81 |      25.3 |\n"
                + "|       | ITL    |          | 16.7 |  35.2 |  39.8 |        |       |           |\n"
                + "|       | TPOT   |          | 12.0 |  18.4 |  19.2 |        |       |           |\n"
                + "|     8 | TTFT   |        5 | 75.0 | 306.0 | 318.0 | +36.4% |  0.61 |      11.4 |\n"
                + "|       | ITL    |          | 10.0 |  11.8 |  12.1 | -40.0% |       |           |\n"
                + "|       | TPOT   |          |  3.3 |   4.7 |   4.8 |        |       |           |\n")
        .contains("No baseline given: `tokentrace report --baseline OTHER.duckdb` compares these")
        .contains(
            "| component         | P50 ms | P90 ms | P95 ms | P99 ms |  share | dominant in |\n"
                + "| ----------------- | -----: | -----: | -----: | -----: | -----: | ----------: |\n"
                + "| network           |   31.0 |   36.2 |   37.1 |   37.8 |   6.9% |           0 |\n"
                + "| queueing (client) |    0.0 |    2.1 |    2.5 |    2.9 |   0.2% |           0 |\n"
                + "| queueing (server) |   12.5 |  146.0 |  173.0 |  194.6 |  12.0% |           1 |\n"
                + "| prefill           |   55.0 |  228.0 |  264.0 |  292.8 |  23.8% |           1 |\n"
                + "| decode            |  250.0 |  470.0 |  485.0 |  497.0 |  57.1% |           2 |\n"
                + "| total (client)    |  460.0 |  571.0 |  590.5 |  606.1 | 100.0% |           4 |\n")
        .contains(
            "## Bottleneck\n\n"
                + "Decode takes the largest share, 57.1% of the end-to-end time of 4 attributed requests (P50 250.0 ms,\n"
                + "P95 485.0 ms), and is the largest component in 2 of them. Next is prefill with 23.8% (P95 264.0 ms).\n"
                + "TTFT P50 goes from 55.0 ms at concurrency 1 to 75.0 ms at concurrency 8 (+36.4%), within the 50%\n"
                + "threshold: compute, not queueing, sets the latency. Network and serving outside the engine add 6.9%\n"
                + "(P50 31.0 ms). These figures rest on 4 of 12 client requests (join rate 83.3%); see the data-quality\n"
                + "notes.\n")
        .contains(
            "## Data quality\n\n"
                + "- Join: 10 of 12 client requests have a server record (83.3%); 4 attributed.\n"
                + "- Client only: 2 (failed before the server, retried, or the ID did not reach the server):\n"
                + "  `tokentrace sql unmatched_requests --param kind=client_only`.\n")
        .contains(
            "- Suspect pairs: 1 (network time below the tolerance: an ID or clock mismatch), left out of the\n")
        .contains(
            "- Low confidence: 1 request known only from text-log arrivals (vLLM text logs: 1 s timestamps, no\n")
        .contains("- Excluded: 1 warm-up request, 1 client error.\n")
        .contains("- Rejected input: 1 client row, 1 server line (table `rejects`).\n")
        .contains(
            "- `bench-1`: Decode takes 57.1% of the end-to-end time, prefill 23.8% (4 of 10 requests"
                + " attributed).\n  TTFT P50 goes from 55.0 ms at concurrency 1 to 75.0 ms at 8"
                + " (+36.4%): compute, not queueing. Its 1\n")
        .contains(
            "| request | E2E ms | TTFT ms | dominant | running | waiting | KV % | batch | at s |\n"
                + "| ------- | -----: | ------: | -------- | ------: | ------: | ---: | ----: | ---: |\n"
                + "| r5      |  610.0 |   100.0 | decode   |     n/a |     n/a |  n/a |   n/a |  n/a |\n")
        .contains(
            "- Per-token speed (`bench-1`): decode takes 57.1% of the end-to-end time in `bench-1`"
                + " with no sign\n")
        .contains(
            "- Report: `tokentrace report` on `:memory:` at 2026-03-01T13:00:00Z; rules: negative"
                + " tolerance 5 ms\n  or 1%, warm-up first 0, match id.\n")
        .contains(
            "- Attribution `correlate-20260301T130000Z` (2026-03-01T13:00:00Z, 0 before it):"
                + " parameters\n  `negative_tolerance_ms=5.0`, `negative_tolerance_pct=1.0`,"
                + " `warmup_first_n=0`, `match=id`,\n  `match_window_ms=1000.0`.\n")
        .contains(
            "(client:csv, run `bench-1`): 608 bytes, sha256\n"
                + "  5e00c2ab563a766b68eaa9dc224af1d593b94446de3d6bc611738d755405288e.\n");
    assertThat(report.lines().filter(line -> !line.startsWith("|")))
        .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(Prose.WIDTH));
  }

  @Test
  void explainsThatTextLogsAloneCannotBeAttributed() throws Exception {
    String report;
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      Path client = dir.resolve("client.csv");
      Files.writeString(
          client,
          "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,concurrency\n"
              + "a,2026-03-01T12:00:00Z,50,500,10,4\n"
              + "b,2026-03-01T12:00:01Z,70,600,10,4\n");
      new dev.tokentrace.correlate.client.ClientTimingLoader(database, HandComputedDataset.CLOCK)
          .load(
              dev.tokentrace.correlate.client.ClientLoadSettings.from(
                  List.of(client), null, "run-1", null, "test", null));
      TestQueries.execute(
          database,
          "INSERT INTO request_arrived (engine, instance, ts, source_path, source_line, source_offset,"
              + " request_id, request_key) VALUES ('vllm', 'gpu-0', TIMESTAMP '2026-03-01 12:00:00',"
              + " 'server.log', 1, 0, 'chatcmpl-a', 'a'), ('vllm', 'gpu-0', TIMESTAMP '2026-03-01"
              + " 12:00:01', 'server.log', 2, 90, 'chatcmpl-b', 'b')");
      report = render(database, AttributionSettings.defaults());
    }
    assertThat(report)
        .contains(
            "## Latency attribution\n\nNo request could be attributed; see the bottleneck and")
        .contains(
            "## Bottleneck\n\n"
                + "No request can be split into components: the server data for 2 of 2 client requests is text-log\n"
                + "arrivals only, which carry no queue, prefill or decode times; export per-request traces (vLLM\n"
                + "--otlp-traces-endpoint) to attribute latency. Seen from the client, TTFT is P50 60.0 ms and P95 69.0\n"
                + "ms over 2 requests. Only concurrency 4 was measured, so the +50% TTFT rule (concurrency 1 against 8)\n"
                + "cannot tell queueing from compute; add runs at both levels.\n")
        .contains(
            "- Low confidence: 2 requests known only from text-log arrivals (vLLM text logs: 1 s timestamps, no\n"
                + "  per-request durations); no server component is computed for them.\n");
  }

  @Test
  void saysWhatIsMissingInAnEmptyDatabase() throws Exception {
    String report;
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      report = render(database, AttributionSettings.from(null, null, 3));
    }
    assertThat(report)
        .contains(
            "Warm-up: the client's flag and the first 3 requests of each run and concurrency.")
        .contains("## Environment\n\nNo server data is loaded.\n")
        .contains("No client request with status ok is loaded.")
        .contains("No client timings are loaded, so no request can be attributed; load them with")
        .contains("- Join: 0 of 0 client requests have a server record (n/a); 0 attributed.\n");
  }

  @Test
  void appliesTheFiftyPercentRuleToConcurrencyEight() throws Exception {
    ReportData data =
        data(
            List.of(
                level(1, 100.0, null, null),
                level(4, 120.0, 20.0, false),
                level(8, 180.0, 80.0, true),
                level(16, 400.0, 300.0, true)));
    assertThat(render(data).replace('\n', ' '))
        .contains(
            "TTFT P50 goes from 100.0 ms at concurrency 1 to 180.0 ms at concurrency 8 (+80.0%), over the"
                + " 50% threshold: queueing, not compute, is the main problem; tune scheduling and the"
                + " maximum batch size before buying faster GPUs.");
  }

  @Test
  void keepsTheFiftyPercentRuleToFirstTokenLatencyWhenAnotherComponentTakesTheLargestShare()
      throws Exception {
    ReportData data =
        new ReportData(
            "x.duckdb",
            Instant.parse("2026-03-01T13:00:00Z"),
            ReportDataLoader.rules(AttributionSettings.defaults()),
            List.of(),
            List.of(),
            List.of(),
            List.of(share("decode", 0.6), share("queue", 0.3), share("prefill", 0.1)),
            List.of(level(1, 100.0, null, null), level(8, 180.0, 80.0, true)),
            emptyQuality(),
            List.of());

    assertThat(render(data).replace('\n', ' '))
        .contains("Decode takes the largest share, 60.0%")
        .contains(
            "(+80.0%), over the 50% threshold: under load, queueing, not compute, drives the"
                + " first-token latency (decode still takes the largest share of the end-to-end"
                + " time); tune scheduling and the maximum batch size for TTFT.")
        .doesNotContain("main problem");
  }

  @Test
  void labelsServerRecordsWithoutPhasesLowConfidenceAndInventsNoComponent() throws Exception {
    DataQuality quality =
        new DataQuality(
            2, 2, 0, 0, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 1.0, 0, 0, 0, 0, 0, 0, 0,
            0, 0);
    ReportData data =
        new ReportData(
            "x.duckdb",
            Instant.parse("2026-03-01T13:00:00Z"),
            ReportDataLoader.rules(AttributionSettings.defaults()),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            quality,
            List.of());

    assertThat(render(data).replaceAll("\\s+", " "))
        .contains("No request could be attributed; see the bottleneck and data-quality notes.")
        .contains(
            "Low confidence: no request can be split into components: the server records of 2 of"
                + " 2 client requests lack queue, prefill or decode times (e.g. SGLang before"
                + " v0.5.5 logs only e2e_latency), and none is invented;")
        .contains(
            "- Low confidence: 2 requests matched to server records that lack a phase (e.g."
                + " SGLang before v0.5.5 logs only e2e_latency); no server component is computed"
                + " for them.");
  }

  @Test
  void escapesPipesAndLineBreaksFromLogDerivedText() throws Exception {
    ReportData data =
        new ReportData(
            "x.duckdb",
            Instant.parse("2026-03-01T13:00:00Z"),
            ReportDataLoader.rules(AttributionSettings.defaults()),
            List.of(
                new ReportData.Source(
                    "vllm", "gpu|0\nevil", "request_timing", "otlp", 1, 1, null, null)),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            emptyQuality(),
            List.of());
    assertThat(render(data))
        .contains("| vllm   | gpu\\|0 evil | request_timing | otlp   |      1 |     1 |");
  }

  @Test
  void explainsHeuristicPairsUnusableIdsRetriesAndClockFlags() throws Exception {
    DataQuality quality =
        new DataQuality(
            10, 10, 0, 0, 4, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 6, 5, 0, 0, 0, 0, 0.9, 3, 1, 1, 2, 1, 1,
            1, 1, 0);
    ClockOffset clock =
        new ClockOffset(
            "bench",
            "gpu-0",
            "vllm",
            "id_pairs",
            "wall",
            "wall",
            "request_timing",
            9,
            8,
            1,
            10_800_041.0,
            1.5,
            10_800_039.0,
            10_800_044.0,
            180,
            null,
            null,
            null,
            null,
            "zone",
            "the clocks differ by 180 min: a log time zone (or date) set wrong");
    ReportData data =
        new ReportData(
            "x.duckdb",
            Instant.parse("2026-03-01T13:00:00Z"),
            ReportDataLoader.rules(AttributionSettings.defaults()),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            quality,
            List.of(clock));
    String report = render(data).replaceAll("\\s+", " ");
    assertThat(report)
        .contains(
            "Heuristic matches: 3 requests paired by time window and token counts (--match"
                + " heuristic), not by ID; labelled `heuristic` in join_status and confidence; 1"
                + " paired without times among several candidates is left out of the aggregates.")
        .contains(
            "No usable ID: 1 client request carries an ID the server never saw (SGLang bench,"
                + " LLMPerf, GuideLLM without response_id, vLLM bench without"
                + " --request-id-prefix); `tokentrace correlate --match heuristic` pairs them by"
                + " time and tokens.")
        .contains(
            "Retries: 2 request keys arrived at the server more than once (a client retrying with"
                + " the same ID); 1 client request attributed once, from the final attempt's"
                + " record, the others listed as duplicates and not attributed")
        .contains(
            "Clock, run `bench` on `gpu-0` (wall client clock): server minus client +3.00 h,"
                + " spread 1.5 ms, 8 of 9 ID-paired requests [zone]: the clocks differ by 180 min:"
                + " a log time zone (or date) set wrong.");
  }

  @Test
  void hasAWriterForEveryFormat() {
    assertThat(ReportService.renderer(ReportFormat.fromId("markdown")))
        .isInstanceOf(MarkdownReportWriter.class);
    assertThat(ReportService.renderer(ReportFormat.fromId("html")))
        .isInstanceOf(HtmlReportWriter.class);
    assertThat(ReportService.renderer(ReportFormat.fromId("json")))
        .isInstanceOf(JsonReportWriter.class);
    assertThatThrownBy(() -> ReportFormat.fromId("pdf"))
        .hasMessage("unknown report format 'pdf' (known: md, html, json)");
  }

  private static String render(Database database, AttributionSettings settings) throws Exception {
    StringBuilder out = new StringBuilder();
    new ReportService(database, HandComputedDataset.CLOCK)
        .write(new ReportSettings(ReportFormat.MARKDOWN, settings), "tokentrace report", out);
    return out.toString();
  }

  private static String render(ReportData data) throws Exception {
    StringBuilder out = new StringBuilder();
    new MarkdownReportWriter().write(ReportAnalysis.of(data), out);
    return out.toString();
  }

  private static List<String> sectionOrder(String report) {
    return report
        .lines()
        .filter(line -> line.startsWith("## ") || line.startsWith("### "))
        .toList();
  }

  private static ReportData data(List<ReportData.ConcurrencyLevel> levels) {
    return new ReportData(
        "x.duckdb",
        Instant.parse("2026-03-01T13:00:00Z"),
        ReportDataLoader.rules(AttributionSettings.defaults()),
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        levels,
        emptyQuality(),
        List.of());
  }

  private static ReportData.ConcurrencyLevel level(
      int concurrency, double ftlP50, Double growth, Boolean queueing) {
    return new ReportData.ConcurrencyLevel(
        concurrency,
        10,
        ftlP50,
        ftlP50 * 2,
        5.0,
        9.0,
        1,
        growth == null ? 0.0 : growth,
        queueing == null ? false : queueing);
  }

  private static ReportData.Component share(String component, double share) {
    return new ReportData.Component(
        "all", null, component, 10, 100.0, 200.0, 300.0, 400.0, 150.0, share, 3);
  }

  private static DataQuality emptyQuality() {
    return new DataQuality(
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, 0, 0, 0, 0, 0, 0, 0,
        0);
  }
}
