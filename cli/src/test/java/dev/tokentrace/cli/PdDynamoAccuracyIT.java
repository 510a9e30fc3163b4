package dev.tokentrace.cli;

import static dev.tokentrace.cli.PdRows.attributed;
import static dev.tokentrace.cli.PdRows.run;
import static dev.tokentrace.cli.PdRows.truth;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.simulator.pd.PdFiles;
import dev.tokentrace.simulator.pd.PdScenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Prefill/decode disaggregation under NVIDIA Dynamo through the CLI (docs/formats/dynamo.md):
 * {@code simulate --pd NAME --engine dynamo} writes the frontend's request-trace records, the
 * workers' JSONL logs with their {@code handle_payload} spans and the decode engine's transfer
 * records, and each worker's vLLM OTLP span export; {@code ingest}, {@code clients} and {@code
 * correlate} join them by the request's ID, and each component is compared with {@code truth.csv}.
 *
 * <p>Checked: every request attributed as one P/D request with both workers right and its transfer
 * labelled {@code request}, and every component (client queueing, network, prefill-side queueing,
 * prefill, kv_transfer, decode-side queueing, decode, and the two sides' sums) within max(1 ms, 1%)
 * of the truth for at least 99% of the requests (docs/formats/dynamo.md#engine-records). The shares
 * are written to {@code cli/target/pd-dynamo-accuracy.md}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
final class PdDynamoAccuracyIT {
  private static final double SHARE = 0.99;

  /** Requests per scenario: enough for the 99% share to allow one miss, few enough to be quick. */
  private static final int REQUESTS = 150;

  private EmbeddedBroker broker;
  private final Map<String, String> figures = new LinkedHashMap<>();

  @BeforeAll
  void startBroker() {
    broker = EmbeddedBroker.start();
  }

  @AfterAll
  void stop() throws IOException {
    if (broker != null) {
      broker.close();
    }
    StringBuilder text = new StringBuilder("# Dynamo P/D attribution accuracy\n\n");
    text.append("| scenario | requests | within max(1 ms, 1%) of truth |\n|---|---|---|\n");
    figures.forEach((k, v) -> text.append("| ").append(k).append(" | ").append(v).append(" |\n"));
    Path file = Path.of("target", "pd-dynamo-accuracy.md");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, UTF_8);
    System.out.println(text);
  }

  /**
   * The four scenarios are written side by side and read in one {@code ingest}, one {@code clients}
   * and one {@code correlate} (instances named {@code <scenario>-prefill-0}; request IDs already
   * name their scenario), so the fixed cost of a run is paid once.
   */
  @Test
  void everyComponentAgainstTheTruth(@TempDir Path work) throws Exception {
    Path db = work.resolve("pd.duckdb");
    List<String> ingest =
        new ArrayList<>(
            List.of(
                "ingest",
                "--db",
                db.toString(),
                "--bootstrap-servers",
                broker.bootstrapServers(),
                "--topic-prefix",
                "pd-dynamo",
                "--engine",
                "vllm"));
    List<String> clients = new ArrayList<>(List.of("clients", "--db", db.toString()));
    Map<String, Map<String, Map<String, String>>> truths = new LinkedHashMap<>();
    for (PdScenario scenario : PdScenario.ALL) {
      String name = scenario.name();
      Path dir = work.resolve(name);
      run(
          "simulate",
          "--pd",
          name,
          "--engine",
          "dynamo",
          "--requests",
          String.valueOf(REQUESTS),
          "--out",
          dir.toString());
      Path frontend = dir.resolve("frontend");
      ingest.add(name + "-frontend=" + frontend.resolve("request_trace.jsonl"));
      ingest.add(name + "-frontend=" + frontend.resolve("frontend.log"));
      for (int p = 0; p < scenario.prefillServers(); p++) {
        String server = PdFiles.prefill(p);
        ingest.add(name + "-" + server + "=" + dir.resolve(server).resolve("worker.log"));
        ingest.add(name + "-" + server + "=" + dir.resolve(server).resolve("otlp.jsonl"));
      }
      for (int d = 0; d < scenario.decodeServers(); d++) {
        String server = PdFiles.decode(d);
        ingest.add(name + "-" + server + "=" + dir.resolve(server).resolve("worker.log"));
        ingest.add(name + "-" + server + "=" + dir.resolve(server).resolve("otlp.jsonl"));
      }
      clients.add(dir.resolve("client_timings.csv").toString());
      truths.put(name, truth(dir.resolve("truth.csv")));
    }
    run(ingest.toArray(String[]::new));
    run(clients.toArray(String[]::new));
    run("correlate", "--db", db.toString(), "--out", work.resolve("attribution.csv").toString());
    Map<String, Map<String, Object>> attributed = attributed(db);
    for (var scenario : truths.entrySet()) {
      check(scenario.getKey(), scenario.getValue(), attributed);
    }
  }

  private void check(
      String name,
      Map<String, Map<String, String>> truth,
      Map<String, Map<String, Object>> attributed) {
    assertThat(attributed.keySet())
        .as(name + ": every request attributed")
        .containsAll(truth.keySet());
    String[] sides = {"client_queue_ms", "network_ms", "prefill_side", "decode_side"};
    String[] single = {
      "prefill_queue_ms", "prefill_ms", "kv_transfer_ms", "decode_queue_ms", "decode_ms"
    };
    Map<String, Integer> within = new LinkedHashMap<>();
    for (var entry : truth.entrySet()) {
      Map<String, String> t = entry.getValue();
      Map<String, Object> a = attributed.get(entry.getKey());
      assertThat(a.get("included")).as(entry.getKey() + " included").isEqualTo(true);
      assertThat(a.get("instance")).isEqualTo(name + "-" + t.get("prefill_instance"));
      assertThat(a.get("decode_instance")).isEqualTo(name + "-" + t.get("decode_instance"));
      assertThat(a.get("kv_transfer_source")).isEqualTo("request");
      Map<String, Double> actual = new HashMap<>();
      actual.put("client_queue_ms", (Double) a.get("client_queue_ms"));
      actual.put("network_ms", (Double) a.get("network_ms"));
      actual.put("prefill_queue_ms", (Double) a.get("queue_ms"));
      actual.put("prefill_ms", (Double) a.get("prefill_ms"));
      actual.put("kv_transfer_ms", (Double) a.get("kv_transfer_ms"));
      actual.put("decode_queue_ms", (Double) a.get("decode_queue_ms"));
      actual.put("decode_ms", (Double) a.get("decode_ms"));
      Map<String, Double> expected = new HashMap<>();
      for (String c : single) {
        expected.put(c, Double.parseDouble(t.get(c)));
      }
      for (String c : List.of("client_queue_ms", "network_ms")) {
        expected.put(c, Double.parseDouble(t.get(c)));
      }
      for (Map<String, Double> values : List.of(actual, expected)) {
        values.put("prefill_side", values.get("prefill_queue_ms") + values.get("prefill_ms"));
        values.put(
            "decode_side",
            values.get("kv_transfer_ms") + values.get("decode_queue_ms") + values.get("decode_ms"));
      }
      for (String c : Stream.concat(Stream.of(sides), Stream.of(single)).toList()) {
        double e = expected.get(c);
        boolean close = Math.abs(actual.get(c) - e) <= Math.max(1.0, 0.01 * Math.abs(e));
        within.merge(c, close ? 1 : 0, Integer::sum);
      }
    }
    int n = truth.size();
    StringBuilder line = new StringBuilder();
    within.forEach(
        (c, k) ->
            line.append(c)
                .append(' ')
                .append(String.format(Locale.ROOT, "%.1f%%", 100.0 * k / n))
                .append("; "));
    figures.put(name, n + " | " + line);
    for (String c : Stream.concat(Stream.of(sides), Stream.of(single)).toList()) {
      assertThat(within.getOrDefault(c, 0))
          .as(name + " " + c + " within tolerance")
          .isGreaterThanOrEqualTo((int) Math.ceil(SHARE * n));
    }
  }
}
