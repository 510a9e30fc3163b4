package dev.tokentrace.cli;

import static dev.tokentrace.cli.PdRows.attributed;
import static dev.tokentrace.cli.PdRows.run;
import static dev.tokentrace.cli.PdRows.truth;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.simulator.pd.PdFiles;
import dev.tokentrace.simulator.pd.PdScenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * TensorRT-LLM disaggregated serving through the CLI (docs/formats/pd.md#tensorrt-llm): {@code
 * simulate --pd NAME --engine trtllm} writes each context and generation server's {@code
 * /perf_metrics} (with {@code ctx_request_id} and the generation server's KV transfer times) and
 * the cache transceiver's per-rank CSVs; {@code ingest}, {@code clients} and {@code correlate
 * --match heuristic} (TensorRT-LLM honours no client ID, docs/formats/trtllm.md#request-ids) join
 * the two halves by {@code ctx_request_id}, pair each with its client row by time, and every
 * component is compared with {@code truth.csv}: client queueing, network, prefill-side queueing,
 * prefill, kv_transfer (the request's own, source {@code request}), decode-side queueing and
 * decode, each within max(1 ms, 1%) of the truth for at least 99% of the requests.
 *
 * <p>slow-link spreads its client run round robin over two context servers: their prefill halves,
 * which share decode servers, are one steady-clock series (the workers of one disaggregated server
 * write on its clock), so the run links to that group and each request pairs with its context
 * server's half (docs/formats/pd.md#tensorrt-llm). Fewer requests than the vLLM test (60 per
 * scenario) keep it within its budget.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class PdTrtllmAccuracyIT {
  private static final double SHARE = 0.99;
  private static final int REQUESTS = 60;
  private static final List<String> COMPONENTS =
      List.of(
          "client_queue_ms",
          "network_ms",
          "prefill_queue_ms",
          "prefill_ms",
          "kv_transfer_ms",
          "decode_queue_ms",
          "decode_ms");

  private final Map<String, String> figures = new LinkedHashMap<>();

  @AfterAll
  void report() throws IOException {
    StringBuilder text = new StringBuilder("# TensorRT-LLM P/D accuracy (PdTrtllmAccuracyIT)\n\n");
    text.append("| scenario | requests | within max(1 ms, 1%) of truth |\n|---|---|---|\n");
    figures.forEach((k, v) -> text.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    Path file = Path.of("target", "pd-trtllm-accuracy.md");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, UTF_8);
    System.out.println(text);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"transfer-bound", "decode-saturated", "prefill-saturated", "slow-link"})
  void everyComponentMatchesTheTruth(String name, @TempDir Path work) throws Exception {
    Path db = attribute(name, work);
    Map<String, Map<String, String>> truth = truth(work.resolve("sim").resolve("truth.csv"));
    Map<String, Map<String, Object>> attributed = attributed(db);
    assertThat(attributed.keySet()).as("every request attributed").isEqualTo(truth.keySet());
    // the decode halves are the same requests' second halves, not requests of their own
    assertThat(Files.readString(work.resolve("correlate.out"), UTF_8))
        .contains(" heuristic=" + REQUESTS + " ")
        .contains(" server_only=0 ");

    Map<String, Integer> within = new LinkedHashMap<>();
    int joined = 0;
    for (var entry : truth.entrySet()) {
      Map<String, String> t = entry.getValue();
      Map<String, Object> a = attributed.get(entry.getKey());
      boolean pair =
          Boolean.TRUE.equals(a.get("included"))
              && t.get("prefill_instance").equals(a.get("instance"))
              && t.get("decode_instance").equals(a.get("decode_instance"))
              && "request".equals(a.get("kv_transfer_source"));
      joined += pair ? 1 : 0;
      for (String c : COMPONENTS) {
        Object value = a.get(c.equals("prefill_queue_ms") ? "queue_ms" : c);
        double expected = Double.parseDouble(t.get(c));
        boolean ok =
            value instanceof Double actual
                && Math.abs(actual - expected) <= Math.max(1.0, 0.01 * Math.abs(expected));
        within.merge(c, ok ? 1 : 0, Integer::sum);
      }
    }
    int n = truth.size();
    StringBuilder line = new StringBuilder();
    line.append(String.format(Locale.ROOT, "joined %.1f%%; ", 100.0 * joined / n));
    within.forEach(
        (c, k) ->
            line.append(c)
                .append(' ')
                .append(String.format(Locale.ROOT, "%.1f%%", 100.0 * k / n))
                .append("; "));
    figures.put(name, n + " | " + line);
    int needed = (int) Math.ceil(SHARE * n);
    assertThat(joined)
        .as(name + ": P/D pairs with both instances and the request's own transfer\n" + line)
        .isGreaterThanOrEqualTo(needed);
    for (String c : COMPONENTS) {
      assertThat(within.getOrDefault(c, 0))
          .as(name + " " + c + " within tolerance\n" + line)
          .isGreaterThanOrEqualTo(needed);
    }
  }

  /**
   * simulate → ingest → clients → correlate --match heuristic; the database. Correlate's exit code
   * is not checked: the asserts on the attribution say more than the join-rate warning's code.
   */
  private static Path attribute(String name, Path work) throws IOException {
    Path dir = work.resolve("sim");
    Path db = work.resolve("pd.duckdb");
    run(
        "simulate",
        "--pd",
        name,
        "--engine",
        "trtllm",
        "--requests",
        String.valueOf(REQUESTS),
        "--out",
        dir.toString());
    PdScenario scenario = PdScenario.named(name);
    List<String> ingest =
        new ArrayList<>(List.of("ingest", "--db", db.toString(), "--engine", "trtllm"));
    for (int p = 0; p < scenario.prefillServers(); p++) {
      Path server = dir.resolve(PdFiles.prefill(p));
      ingest.add(PdFiles.prefill(p) + "=" + server.resolve("perf_metrics.jsonl"));
      ingest.add(
          PdFiles.prefill(p) + "=" + server.resolve("kv_cache_time").resolve("rank_0_send.csv"));
    }
    for (int d = 0; d < scenario.decodeServers(); d++) {
      Path server = dir.resolve(PdFiles.decode(d));
      ingest.add(PdFiles.decode(d) + "=" + server.resolve("perf_metrics.jsonl"));
      ingest.add(
          PdFiles.decode(d) + "=" + server.resolve("kv_cache_time").resolve("rank_0_recv.csv"));
    }
    run(ingest.toArray(String[]::new));
    run("clients", "--db", db.toString(), dir.resolve("client_timings.csv").toString());
    CommandLine correlate = TokentraceMain.commandLine();
    StringWriter output = new StringWriter();
    correlate.setErr(new PrintWriter(output, true));
    correlate.setOut(new PrintWriter(output, true));
    correlate.execute(
        "correlate",
        "--db",
        db.toString(),
        "--match",
        "heuristic",
        "--out",
        work.resolve("attribution.csv").toString());
    Files.writeString(work.resolve("correlate.out"), output.toString(), UTF_8);
    return db;
  }
}
