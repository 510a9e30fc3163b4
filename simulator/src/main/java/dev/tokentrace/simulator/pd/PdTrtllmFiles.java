package dev.tokentrace.simulator.pd;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a P/D run in TensorRT-LLM's formats (docs/formats/pd.md#tensorrt-llm): per context server
 * ({@code prefill-N}) and generation server ({@code decode-N}) its {@code GET /perf_metrics}
 * scraped every 10 s ({@code perf_metrics.jsonl}, one drained array per line, items with {@code
 * ctx_request_id}; the generation server's with {@code kv_cache_size} and {@code
 * kv_cache_transfer_start}/{@code _end}), and the cache transceiver's 2025 per-rank CSVs in {@code
 * kv_cache_time/} ({@code rank_0_send.csv} on the context server, {@code rank_0_recv.csv} on the
 * generation server; docs/formats/trtllm.md#kv-transfer-csv). Both servers' times are seconds on
 * the disaggregated server's steady clock, as trtllm-serve writes them once the disaggregated
 * server has set its offset ({@code /steady_clock_offset}). The context request id is a global one
 * ({@value #GLOBAL_ID_BASE} + the request's index), the same on both servers and in both CSVs.
 */
final class PdTrtllmFiles {
  /** The smallest global disaggregated request id (2^40; docs/formats/pd.md#tensorrt-llm). */
  static final long GLOBAL_ID_BASE = 1L << 40;

  /** The steady clock at the simulation's zero: the disaggregated server's uptime, seconds. */
  private static final long BOOT_US = 75_000_000_000L;

  private static final long SCRAPE_US = 10_000_000;
  private static final String CSV_HEADER = "RequestID,Delay(ms),Duration(ms),Bandwidth(Gbps)\n";

  private PdTrtllmFiles() {}

  static void write(PdScenario scenario, Path dir, List<PdRequest> requests) {
    try {
      for (int p = 0; p < scenario.prefillServers(); p++) {
        Path server = dir.resolve(PdFiles.prefill(p));
        perfMetrics(server.resolve("perf_metrics.jsonl"), mine(requests, p, true), true);
        transferCsv(
            server.resolve("kv_cache_time").resolve("rank_0_send.csv"),
            mine(requests, p, true),
            scenario,
            true);
      }
      for (int d = 0; d < scenario.decodeServers(); d++) {
        Path server = dir.resolve(PdFiles.decode(d));
        perfMetrics(server.resolve("perf_metrics.jsonl"), mine(requests, d, false), false);
        transferCsv(
            server.resolve("kv_cache_time").resolve("rank_0_recv.csv"),
            mine(requests, d, false),
            scenario,
            false);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
  }

  /** The context request id of {@code r}, as both servers and the CSVs name it. */
  static long ctxRequestId(PdRequest r) {
    return GLOBAL_ID_BASE + r.index();
  }

  private static List<PdRequest> mine(List<PdRequest> requests, int server, boolean context) {
    List<PdRequest> mine = new ArrayList<>();
    for (PdRequest r : requests) {
      if ((context ? r.prefillServer() : r.decodeServer()) == server) {
        mine.add(r);
      }
    }
    return mine;
  }

  /** Items in order of completion, one drained array per scrape; request_id counts per server. */
  private static void perfMetrics(Path file, List<PdRequest> mine, boolean context)
      throws IOException {
    Files.createDirectories(file.getParent());
    List<PdRequest> byEnd = new ArrayList<>(mine);
    byEnd.sort(
        (a, b) ->
            Long.compare(
                context ? a.prefillFirstTokenUs() : a.decodeLastTokenUs(),
                context ? b.prefillFirstTokenUs() : b.decodeLastTokenUs()));
    // the LLM-API client id counts requests in order of arrival on each server
    List<PdRequest> byArrival = new ArrayList<>(mine);
    byArrival.sort(
        (a, b) ->
            Long.compare(
                context ? a.prefillArrivalUs() : a.decodeArrivalUs(),
                context ? b.prefillArrivalUs() : b.decodeArrivalUs()));
    Map<Integer, Integer> ids = new HashMap<>();
    for (PdRequest r : byArrival) {
      ids.put(r.index(), ids.size());
    }
    TreeMap<Long, List<String>> scrapes = new TreeMap<>();
    for (PdRequest r : byEnd) {
      long end = context ? r.prefillFirstTokenUs() : r.decodeLastTokenUs();
      long scrape = Math.floorDiv(end, SCRAPE_US) + 1;
      scrapes
          .computeIfAbsent(scrape, k -> new ArrayList<>())
          .add(item(r, ids.get(r.index()), context));
    }
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      for (List<String> items : scrapes.values()) {
        out.write("[" + String.join(",", items) + "]\n");
      }
    }
  }

  private static String item(PdRequest r, int requestId, boolean context) {
    long arrival = context ? r.prefillArrivalUs() : r.decodeArrivalUs();
    long scheduled = context ? r.prefillStartUs() : r.decodeStartUs();
    long first = context ? r.prefillFirstTokenUs() : r.decodeFirstTokenUs();
    long last = context ? r.prefillFirstTokenUs() : r.decodeLastTokenUs();
    int blocks = (r.promptTokens() + (context ? 1 : r.outputTokens()) + 31) / 32;
    StringBuilder json = new StringBuilder(512);
    json.append("{\"request_id\":").append(requestId);
    json.append(",\"ctx_request_id\":").append(ctxRequestId(r));
    json.append(",\"perf_metrics\":{\"first_iter\":0,\"last_iter\":0,\"timing_metrics\":{");
    json.append("\"server_arrival_time\":").append(steady(arrival));
    json.append(",\"arrival_time\":").append(steady(arrival));
    json.append(",\"first_scheduled_time\":").append(steady(scheduled));
    json.append(",\"first_token_time\":").append(steady(first));
    json.append(",\"server_first_token_time\":").append(steady(first));
    json.append(",\"last_token_time\":").append(steady(last));
    if (!context) {
      json.append(",\"kv_cache_size\":").append(r.kvBytes());
      json.append(",\"kv_cache_transfer_start\":").append(steady(r.decodeArrivalUs()));
      json.append(",\"kv_cache_transfer_end\":").append(steady(r.kvReadyUs()));
    }
    json.append("},\"kv_cache_metrics\":{\"num_total_allocated_blocks\":").append(blocks);
    json.append(",\"num_new_allocated_blocks\":").append(blocks);
    json.append(",\"num_reused_blocks\":0,\"num_missed_blocks\":").append(blocks);
    json.append("}}}");
    return json.toString();
  }

  /**
   * One row per transfer in order of its end: the wait for the link (Delay), the transfer itself
   * (Duration) and its rate. The sender's delay counts from its first token, the receiver's from
   * its request for the cache (docs/formats/pd.md#tensorrt-llm).
   */
  private static void transferCsv(
      Path file, List<PdRequest> mine, PdScenario scenario, boolean send) throws IOException {
    Files.createDirectories(file.getParent());
    List<PdRequest> byEnd = new ArrayList<>(mine);
    byEnd.sort((a, b) -> Long.compare(a.kvReadyUs(), b.kvReadyUs()));
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      out.write(CSV_HEADER);
      for (PdRequest r : byEnd) {
        double gbps = scenario.gbps(r.prefillServer(), r.decodeServer());
        long transferUs = Math.round(r.kvBytes() * 8 / (gbps * 1e9) * 1e6);
        long startUs = r.kvReadyUs() - transferUs;
        long delayUs = startUs - (send ? r.prefillFirstTokenUs() : r.decodeArrivalUs());
        double rate = transferUs == 0 ? 0 : r.kvBytes() * 8 / (transferUs / 1e6) / 1e9;
        out.write(
            ctxRequestId(r)
                + ","
                + BigDecimal.valueOf(delayUs, 3).toPlainString()
                + ","
                + BigDecimal.valueOf(transferUs, 3).toPlainString()
                + ","
                + BigDecimal.valueOf(rate).setScale(3, RoundingMode.HALF_EVEN).toPlainString()
                + "\n");
      }
    }
  }

  private static String steady(long simUs) {
    return BigDecimal.valueOf(BOOT_US + simUs, 6).toPlainString();
  }
}
