package dev.tokentrace.simulator.pd;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.measure.ClientCsv;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * Writes a P/D run (docs/formats/pd.md#simulator) in vLLM's formats: per server its OTLP span
 * export ({@code prefill-N/otlp.jsonl}, {@code decode-N/otlp.jsonl}, one {@code llm_request} span
 * per request, attributes of vLLM V1 from v0.16, docs/formats/vllm.md#otlp-spans), per decode
 * server a log with NIXL's {@code KV Transfer metrics} line every 10 s
 * (docs/formats/pd.md#vllm-kv-transfer-metrics), the client CSV ({@code client_timings.csv}) and
 * {@code truth.csv} (docs/formats/pd.md#truth). The proxy forwards the client's ID as {@code
 * X-Request-Id}, so both servers name the request {@code chatcmpl-<client id>}.
 */
public final class PdFiles {
  /** The simulated clock's zero. */
  public static final Instant START = Instant.parse("2026-03-02T10:00:00Z");

  /** vLLM's stats-log interval ({@code VLLM_LOG_STATS_INTERVAL}, 10 s by default). */
  static final long LOG_INTERVAL_US = 10_000_000;

  private static final int SPANS_PER_LINE = 64;
  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("MM-dd HH:mm:ss", Locale.ROOT);
  private static final DateTimeFormatter ISO_MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT);

  private PdFiles() {}

  /** The engines whose P/D outputs {@link #write(PdScenario, Path, String)} can write. */
  public static final List<String> ENGINES = List.of("vllm", "sglang", "trtllm", "dynamo");

  /** Simulates {@code scenario} and writes vLLM's files into {@code dir}; the requests written. */
  public static int write(PdScenario scenario, Path dir) {
    return write(scenario, dir, "vllm");
  }

  /**
   * Simulates {@code scenario} and writes {@code engine}'s files into {@code dir} (one of {@link
   * #ENGINES}); the requests written. Every engine's writer gets the same simulated requests, so
   * client CSV and truth.csv do not depend on the engine (docs/formats/pd.md#simulator).
   */
  public static int write(PdScenario scenario, Path dir, String engine) {
    return write(scenario, dir, engine, false);
  }

  /**
   * As {@link #write(PdScenario, Path, String)}; with {@code proxyRewrites} (vLLM only) the proxy
   * sends the servers an ID of its own instead of the client's, as vLLM's example proxy does, and
   * writes its access log {@code proxy/access.jsonl} (docs/formats/pd.md#proxy-access-log).
   */
  public static int write(PdScenario scenario, Path dir, String engine, boolean proxyRewrites) {
    return write(scenario, dir, engine, proxyRewrites, false, false);
  }

  /**
   * As {@link #write(PdScenario, Path, String, boolean)}; with {@code nixlDebug} (vLLM only) each
   * decode server's log also has NIXL's per-request DEBUG lines, every line behind a millisecond
   * collector time (docs/formats/pd.md#vllm-nixl-debug-lines); with {@code noRid} (SGLang only) the
   * client sets no rid, so each server names the request by a uuid of its own and the halves share
   * only the router's {@code bootstrap_room} (docs/formats/pd.md#sglang-request-ids).
   */
  public static int write(
      PdScenario scenario,
      Path dir,
      String engine,
      boolean proxyRewrites,
      boolean nixlDebug,
      boolean noRid) {
    if (nixlDebug && !engine.equals("vllm")) {
      throw new IllegalArgumentException(
          "--nixl-debug is for vLLM's NIXL connector only, not --engine " + engine);
    }
    if (noRid && !engine.equals("sglang")) {
      throw new IllegalArgumentException("--no-rid is for SGLang only, not --engine " + engine);
    }
    if (proxyRewrites && !engine.equals("vllm")) {
      throw new IllegalArgumentException(
          "--proxy-rewrites is for vLLM's proxy only, not --engine " + engine);
    }
    List<PdRequest> requests = PdSimulation.run(scenario);
    switch (engine) {
      case "vllm" -> vllm(scenario, dir, requests, proxyRewrites, nixlDebug);
      case "sglang" -> PdSglangFiles.write(scenario, dir, requests, noRid);
      case "trtllm" -> PdTrtllmFiles.write(scenario, dir, requests);
      case "dynamo" -> PdDynamoFiles.write(scenario, dir, requests);
      default ->
          throw new IllegalArgumentException(
              "--engine " + engine + " has no P/D writer; one of " + String.join(", ", ENGINES));
    }
    try {
      clients(dir.resolve("client_timings.csv"), requests);
      truth(dir.resolve("truth.csv"), requests);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
    return requests.size();
  }

  private static void vllm(
      PdScenario scenario,
      Path dir,
      List<PdRequest> requests,
      boolean proxyRewrites,
      boolean nixlDebug) {
    Function<PdRequest, String> sent = r -> proxyRewrites ? proxyId(r) : r.id();
    try {
      Files.createDirectories(dir);
      for (int p = 0; p < scenario.prefillServers(); p++) {
        spans(dir.resolve(prefill(p)).resolve("otlp.jsonl"), requests, p, true, sent);
      }
      if (proxyRewrites) {
        proxyLog(dir.resolve("proxy").resolve("access.jsonl"), requests);
      }
      for (int d = 0; d < scenario.decodeServers(); d++) {
        spans(dir.resolve(decode(d)).resolve("otlp.jsonl"), requests, d, false, sent);
        Path log = dir.resolve(decode(d)).resolve("server.log");
        if (nixlDebug) {
          PdNixlDebug.write(log, requests, d, sent);
        } else {
          transferLog(log, requests, d);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
  }

  /**
   * Writes {@code SOURCE.md} (labelled simulated, with the {@code command} that wrote the files)
   * and {@code scenario.properties} (the log lines' year and zone) beside a P/D run's files, as the
   * samples carry them (docs/formats/pd.md#samples).
   */
  public static void source(PdScenario scenario, Path dir, String command) {
    String text =
        "# Simulated prefill/decode scenario: "
            + scenario.name()
            + "\n\n"
            + "Written by `tokentrace simulate --pd` (our own model in"
            + " `dev.tokentrace.simulator.pd`, docs/formats/pd.md#simulator), not captured from"
            + " real servers: vLLM's OTLP spans of each prefill and decode server and NIXL's `KV"
            + " Transfer metrics` lines of each decode server, composed from the formats in"
            + " docs/formats/pd.md and docs/formats/vllm.md with simulated values. Same command,"
            + " same bytes.\n\n"
            + "- command: `"
            + command
            + "`\n"
            + "- scenario: "
            + scenario.description()
            + "\n"
            + "- servers: "
            + scenario.prefillServers()
            + " prefill, "
            + scenario.decodeServers()
            + " decode; "
            + scenario.requests()
            + " requests\n\n"
            + "## Files\n\n"
            + "| file | content |\n|---|---|\n"
            + "| `prefill-N/otlp.jsonl` | the prefill server's OTLP span export (instance"
            + " `prefill-N`) |\n"
            + "| `decode-N/otlp.jsonl` | the decode server's OTLP span export |\n"
            + "| `decode-N/server.log` | the decode server's `KV Transfer metrics` lines, every 10 s"
            + " |\n"
            + "| `client_timings.csv` | the project's client CSV, one row per request |\n"
            + "| `truth.csv` | every component of every request (docs/formats/pd.md#truth) |\n"
            + (Files.isDirectory(dir.resolve("proxy"))
                ? "| `proxy/access.jsonl` | the rewriting proxy's access log, one line per request"
                    + " (docs/formats/pd.md#proxy-access-log) |\n"
                : "");
    try {
      Files.createDirectories(dir);
      Files.writeString(dir.resolve("SOURCE.md"), text, UTF_8);
      Files.writeString(
          dir.resolve("scenario.properties"),
          "year=" + START.atZone(ZoneOffset.UTC).getYear() + "\nzone=UTC\n",
          UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + dir, e);
    }
  }

  /**
   * Writes each SGLang prefill server's saved {@code /metrics} scrapes of the run {@link #write}
   * wrote for {@code scenario} ({@code prefill-N/metrics.prom}, docs/formats/pd.md#simulator): the
   * same requests, simulated again (the model is deterministic).
   */
  public static void sglangMetrics(PdScenario scenario, Path dir) {
    PdSglangMetrics.write(scenario, dir, PdSimulation.run(scenario));
  }

  /** The instance name of prefill server {@code p}. */
  public static String prefill(int p) {
    return "prefill-" + p;
  }

  /** The instance name of decode server {@code d}. */
  public static String decode(int d) {
    return "decode-" + d;
  }

  /**
   * The ID the rewriting proxy sends both servers for {@code r}: a UUID of its own, as vLLM's
   * example proxy's {@code uuid.uuid4()} (docs/formats/pd.md#vllm-request-ids); fixed per request
   * so runs repeat.
   */
  static String proxyId(PdRequest r) {
    return new UUID(0x70726f78_79000000L | r.index(), 0x8000_0000_0000_0000L | r.index() * 7919L)
        .toString();
  }

  /**
   * The proxy's access log (docs/formats/pd.md#proxy-access-log): one JSON line per request when it
   * finished, with the client's ID, the ID sent to the servers and the servers it went to.
   */
  private static void proxyLog(Path file, List<PdRequest> requests) throws IOException {
    Files.createDirectories(file.getParent());
    List<PdRequest> byEnd = new ArrayList<>(requests);
    byEnd.sort((a, b) -> Long.compare(a.decodeLastTokenUs(), b.decodeLastTokenUs()));
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      for (PdRequest r : byEnd) {
        out.write(
            "{\"ts\":\""
                + instant(r.decodeLastTokenUs())
                + "\",\"client_request_id\":\""
                + r.id()
                + "\",\"upstream_request_id\":\""
                + proxyId(r)
                + "\",\"prefill\":\""
                + prefill(r.prefillServer())
                + "\",\"decode\":\""
                + decode(r.decodeServer())
                + "\",\"status\":200}\n");
      }
    }
  }

  /**
   * The requests one server ran (prefill server {@code server} or decode server {@code server}), in
   * order of their end there: the first token on a prefill server, the last on a decode server.
   */
  static List<PdRequest> served(List<PdRequest> requests, int server, boolean prefill) {
    List<PdRequest> mine = new ArrayList<>();
    for (PdRequest r : requests) {
      if ((prefill ? r.prefillServer() : r.decodeServer()) == server) {
        mine.add(r);
      }
    }
    mine.sort(
        (a, b) ->
            Long.compare(
                prefill ? a.prefillFirstTokenUs() : a.decodeLastTokenUs(),
                prefill ? b.prefillFirstTokenUs() : b.decodeLastTokenUs()));
    return mine;
  }

  private static void spans(
      Path file,
      List<PdRequest> requests,
      int server,
      boolean prefill,
      Function<PdRequest, String> sent)
      throws IOException {
    Files.createDirectories(file.getParent());
    // exported in order of the span's end, as the SDK's batch processor does
    List<PdRequest> mine = served(requests, server, prefill);
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      for (int from = 0; from < mine.size(); from += SPANS_PER_LINE) {
        List<PdRequest> batch = mine.subList(from, Math.min(mine.size(), from + SPANS_PER_LINE));
        out.write(spanLine(batch, prefill, START, r -> "chatcmpl-" + sent.apply(r)));
      }
    }
  }

  /**
   * One OTLP export line (docs/formats/vllm.md#otlp-spans) with one {@code llm_request} span per
   * request of {@code batch} as {@code prefill} or decode server, model time 0 at {@code zero},
   * each named {@code serverId}.
   */
  static String spanLine(
      List<PdRequest> batch,
      boolean prefill,
      Instant zero,
      java.util.function.Function<PdRequest, String> serverId) {
    StringBuilder line = new StringBuilder(1 << 14);
    line.append("{\"resourceSpans\":[{\"resource\":{\"attributes\":[");
    line.append(text("telemetry.sdk.language", "python")).append(',');
    line.append(text("telemetry.sdk.name", "opentelemetry")).append(',');
    line.append(text("telemetry.sdk.version", "1.33.1")).append(',');
    line.append(text("vllm.instrumenting_module_name", "vllm.llm_engine")).append(',');
    line.append(text("service.name", "vllm-server"));
    line.append("]},\"scopeSpans\":[{\"scope\":{\"name\":\"vllm.tracing.otel\"},\"spans\":[");
    for (int i = 0; i < batch.size(); i++) {
      if (i > 0) {
        line.append(',');
      }
      PdRequest r = batch.get(i);
      span(line, r, prefill, epochUs(zero), serverId.apply(r));
    }
    line.append("]}]}]}\n");
    return line.toString();
  }

  private static void span(
      StringBuilder json, PdRequest r, boolean prefill, long zeroEpochUs, String serverId) {
    long arrival = prefill ? r.prefillArrivalUs() : r.decodeArrivalUs();
    long scheduled = prefill ? r.prefillStartUs() : r.decodeStartUs();
    long first = prefill ? r.prefillFirstTokenUs() : r.decodeFirstTokenUs();
    long last = prefill ? r.prefillFirstTokenUs() : r.decodeLastTokenUs();
    long seed = r.index() * 2L + (prefill ? 0 : 1);
    json.append("{\"traceId\":\"").append(String.format("%032x", seed + 0x7ace0000L));
    json.append("\",\"spanId\":\"").append(String.format("%016x", seed + 0x5ba40000L));
    json.append("\",\"name\":\"llm_request\",\"kind\":2,\"startTimeUnixNano\":\"");
    json.append(zeroEpochUs + arrival).append("000\",\"endTimeUnixNano\":\"");
    json.append(zeroEpochUs + last).append("000\",\"attributes\":[");
    seconds(json, "gen_ai.latency.time_to_first_token", first - arrival);
    seconds(json, "gen_ai.latency.e2e", last - arrival);
    seconds(json, "gen_ai.latency.time_in_queue", scheduled - arrival);
    integer(json, "gen_ai.usage.prompt_tokens", r.promptTokens());
    integer(json, "gen_ai.usage.completion_tokens", prefill ? 1 : r.outputTokens());
    seconds(json, "gen_ai.latency.time_in_model_prefill", first - scheduled);
    seconds(json, "gen_ai.latency.time_in_model_decode", last - first);
    seconds(json, "gen_ai.latency.time_in_model_inference", last - scheduled);
    json.append(text("gen_ai.request.id", serverId)).append(',');
    integer(json, "gen_ai.request.max_tokens", prefill ? 1 : r.outputTokens());
    json.append("{\"key\":\"gen_ai.request.n\",\"value\":{\"intValue\":\"1\"}}");
    json.append("],\"status\":{}}");
  }

  /** NIXL's interval line on the decode server: the transfers that ended in each 10 s. */
  private static void transferLog(Path file, List<PdRequest> requests, int server)
      throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      for (var entry : transferLines(requests, server).entrySet()) {
        out.write(transferLine(instant(entry.getKey()), entry.getValue()));
      }
    }
  }

  /**
   * The decode server's interval lines: at each 10 s boundary (model µs), the transfers that ended
   * in the interval before it.
   */
  static TreeMap<Long, List<PdRequest>> transferLines(List<PdRequest> requests, int server) {
    TreeMap<Long, List<PdRequest>> byLine = new TreeMap<>();
    for (PdRequest r : requests) {
      if (r.decodeServer() == server) {
        long line = Math.floorDiv(r.kvReadyUs() + LOG_INTERVAL_US - 1, LOG_INTERVAL_US);
        byLine.computeIfAbsent(line * LOG_INTERVAL_US, k -> new ArrayList<>()).add(r);
      }
    }
    return byLine;
  }

  /**
   * NIXL's {@code KV Transfer metrics} line (docs/formats/pd.md#vllm-kv-transfer-metrics) logged at
   * {@code at} for the transfers {@code done} (at least one) that ended in its interval.
   */
  static String transferLine(Instant at, List<PdRequest> done) {
    double[] ms = new double[done.size()];
    double totalMb = 0;
    for (int i = 0; i < ms.length; i++) {
      ms[i] = done.get(i).kvTransferUs() / 1e3;
      totalMb += done.get(i).kvBytes() / (double) (1 << 20);
    }
    double totalMs = 0;
    for (double v : ms) {
      totalMs += v;
    }
    StringBuilder line = new StringBuilder(256);
    line.append("(APIServer pid=4242) INFO ");
    line.append(LocalDateTime.ofInstant(at, ZoneOffset.UTC).format(LOG_TIME));
    line.append(" [metrics.py:149] KV Transfer metrics: Num successful transfers=");
    line.append(ms.length);
    line.append(", Avg xfer time (ms)=").append(python(totalMs / ms.length));
    line.append(", P90 xfer time (ms)=").append(python(percentile(ms, 0.9)));
    line.append(", Avg post time (ms)=").append(python(0.05));
    line.append(", P90 post time (ms)=").append(python(0.08));
    line.append(", Avg MB per transfer=").append(python(totalMb / ms.length));
    line.append(", Throughput (MB/s)=").append(python(totalMb / (totalMs / 1e3)));
    line.append(", Avg number of descriptors=").append(python(32.0));
    line.append(", Num failed transfers=0, Num KV expired reqs=0\n");
    return line.toString();
  }

  private static void clients(Path file, List<PdRequest> requests) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      out.write(ClientCsv.HEADER + "\n");
      for (PdRequest r : requests) {
        StringBuilder row = new StringBuilder(160);
        ClientCsv.appendRow(
            row,
            r.id(),
            LocalDateTime.ofInstant(instant(r.issuedUs()), ZoneOffset.UTC).format(ISO_MICROS),
            millis(r.clientFirstTokenUs() - r.issuedUs()),
            millis(r.e2eUs()),
            r.outputTokens(),
            millis(r.clientQueueUs()),
            r.promptTokens(),
            null,
            "ok",
            false);
        out.write(row.append('\n').toString());
      }
    }
  }

  /** The true components of every request (docs/formats/pd.md#truth). */
  private static void truth(Path file, List<PdRequest> requests) throws IOException {
    try (BufferedWriter out = Files.newBufferedWriter(file, UTF_8)) {
      out.write(
          "request_id,prefill_instance,decode_instance,client_queue_ms,network_ms,"
              + "prefill_queue_ms,prefill_ms,kv_transfer_ms,decode_queue_ms,decode_ms,"
              + "client_e2e_ms\n");
      for (PdRequest r : requests) {
        out.write(
            String.join(
                    ",",
                    r.id(),
                    prefill(r.prefillServer()),
                    decode(r.decodeServer()),
                    millis(r.clientQueueUs()),
                    millis(r.networkUs()),
                    millis(r.prefillQueueUs()),
                    millis(r.prefillUs()),
                    millis(r.kvTransferUs()),
                    millis(r.decodeQueueUs()),
                    millis(r.decodeUs()),
                    millis(r.e2eUs()))
                + "\n");
      }
    }
  }

  /** numpy's default (linear) percentile, as vLLM's {@code np.percentile}. */
  private static double percentile(double[] values, double q) {
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    double rank = (sorted.length - 1) * q;
    int low = (int) Math.floor(rank);
    int high = Math.min(low + 1, sorted.length - 1);
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
  }

  /** Python's {@code str(round(x, 3))}: the shortest form, at least one decimal. */
  private static String python(double value) {
    BigDecimal rounded = BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_EVEN);
    String text = rounded.stripTrailingZeros().toPlainString();
    return text.contains(".") ? text : text + ".0";
  }

  static String millis(long us) {
    return BigDecimal.valueOf(us, 3).toPlainString();
  }

  static Instant instant(long simUs) {
    return START.plusNanos(simUs * 1000);
  }

  private static long epochUs(Instant zero) {
    return zero.getEpochSecond() * 1_000_000 + zero.getNano() / 1000;
  }

  private static void seconds(StringBuilder json, String key, long us) {
    json.append("{\"key\":\"").append(key).append("\",\"value\":{\"doubleValue\":");
    json.append(BigDecimal.valueOf(us, 6).toPlainString()).append("}},");
  }

  private static void integer(StringBuilder json, String key, long value) {
    json.append("{\"key\":\"").append(key).append("\",\"value\":{\"intValue\":\"");
    json.append(value).append("\"}},");
  }

  private static String text(String key, String value) {
    return "{\"key\":\"" + key + "\",\"value\":{\"stringValue\":\"" + value + "\"}}";
  }
}
