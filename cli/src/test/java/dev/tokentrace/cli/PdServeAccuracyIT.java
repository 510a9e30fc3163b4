package dev.tokentrace.cli;

import static dev.tokentrace.cli.PdRows.attributed;
import static dev.tokentrace.cli.PdRows.run;
import static dev.tokentrace.cli.PdRows.truth;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Prefill/decode disaggregation live (docs/formats/pd.md#live): {@code loadgen} drives {@code
 * simulate --serve --pd prefill-saturated} (in this JVM, real time), whose prefill and decode
 * servers write vLLM's OTLP spans and the decode server's {@code KV Transfer metrics} lines as they
 * go; then {@code ingest}, {@code clients} and {@code correlate} attribute every request, and each
 * server component is compared with the proxy's {@code server_truth.csv}: prefill-side queueing,
 * prefill, kv_transfer, decode-side queueing and decode within max(1 ms, 1%) for at least 99% of
 * the requests. In this scenario the prefill server runs one request at a time, so transfers never
 * share a link and the interval estimate of the transfer is exact (docs/formats/pd.md#estimate).
 * Network and client queueing have no truth live (the client's and the loopback's time): network
 * must be positive up to rounding, as in {@link LiveEndToEndIT}.
 */
final class PdServeAccuracyIT {
  private static final int REQUESTS = 120;
  private static final int SGLANG_REQUESTS = 40;
  private static final double SHARE = 0.99;

  @TempDir Path dir;

  @Test
  void everyServerComponentMatchesTheTruth() throws Exception {
    Path served = dir.resolve("served");
    Path clients = dir.resolve("client_timings.csv");
    Path db = dir.resolve("pd.duckdb");
    long t0 = System.nanoTime();
    StringWriter out = new StringWriter();
    Thread server =
        serveInThread(out, "pd-serve", served, "prefill-saturated", "--pd-stats-interval", "1");
    try {
      int port = LiveSimulator.awaitPort(out, server);
      run(
          "loadgen",
          "--url",
          "http://127.0.0.1:" + port,
          "--api",
          "completions",
          "--concurrency",
          "8",
          "--requests",
          Integer.toString(REQUESTS),
          "--prompt-tokens",
          "400",
          "--max-tokens",
          "12",
          "--id-prefix",
          "pdlive-",
          "--out",
          clients.toString());
    } finally {
      server.interrupt();
      server.join(30_000);
    }
    assertThat(server.isAlive()).as("simulate --serve --pd stopped").isFalse();
    long loaded = System.nanoTime();
    String broker = FaultFixture.sharedBroker();
    long brokerUp = System.nanoTime();
    int year = Instant.now().atZone(ZoneOffset.UTC).getYear();
    run(
        "ingest",
        "--db",
        db.toString(),
        "--bootstrap-servers",
        broker,
        "--topic-prefix",
        "pd-serve",
        "--engine",
        "vllm",
        "--year",
        Integer.toString(year),
        "--zone",
        "UTC",
        "prefill-0=" + served.resolve("prefill-0/otlp.jsonl"),
        "decode-0=" + served.resolve("decode-0/otlp.jsonl"),
        "decode-0=" + served.resolve("decode-0/server.log"));
    run("clients", "--db", db.toString(), clients.toString());
    run("correlate", "--db", db.toString());
    System.out.printf(
        Locale.ROOT,
        "PdServeAccuracyIT: serve+loadgen %.1f s, broker %.1f s, ingest+clients+correlate %.1f s%n",
        (loaded - t0) / 1e9,
        (brokerUp - loaded) / 1e9,
        (System.nanoTime() - brokerUp) / 1e9);

    Map<String, Map<String, String>> truth = truth(served.resolve("server_truth.csv"));
    assertThat(truth).hasSize(REQUESTS);
    Map<String, Map<String, Object>> attributed = attributed(db);
    assertThat(attributed.keySet()).as("every request attributed").isEqualTo(truth.keySet());
    Map<String, String> columns = new LinkedHashMap<>();
    columns.put("prefill_queue_ms", "queue_ms");
    columns.put("prefill_ms", "prefill_ms");
    columns.put("kv_transfer_ms", "kv_transfer_ms");
    columns.put("decode_queue_ms", "decode_queue_ms");
    columns.put("decode_ms", "decode_ms");
    Map<String, Integer> within = new LinkedHashMap<>();
    List<Double> network = new ArrayList<>();
    for (var entry : truth.entrySet()) {
      Map<String, String> t = entry.getValue();
      Map<String, Object> a = attributed.get(entry.getKey());
      assertThat(a.get("included")).as(entry.getKey() + " included").isEqualTo(true);
      assertThat(a.get("join_status")).isEqualTo("matched");
      assertThat(a.get("instance")).isEqualTo(t.get("prefill_instance"));
      assertThat(a.get("decode_instance")).isEqualTo(t.get("decode_instance"));
      assertThat(a.get("kv_transfer_source")).isEqualTo("interval_estimate");
      for (var column : columns.entrySet()) {
        double expected = Double.parseDouble(t.get(column.getKey()));
        double actual = ((Number) a.get(column.getValue())).doubleValue();
        boolean ok = Math.abs(actual - expected) <= Math.max(1.0, 0.01 * Math.abs(expected));
        within.merge(column.getKey(), ok ? 1 : 0, Integer::sum);
      }
      network.add(((Number) a.get("network_ms")).doubleValue());
    }
    StringBuilder figures = new StringBuilder();
    within.forEach(
        (c, k) ->
            figures.append(String.format(Locale.ROOT, "%s %.1f%%; ", c, 100.0 * k / truth.size())));
    System.out.println("PdServeAccuracyIT: " + truth.size() + " requests: " + figures);
    for (var column : within.entrySet()) {
      assertThat(column.getValue())
          .as(column.getKey() + " within max(1 ms, 1%) of the truth: " + figures)
          .isGreaterThanOrEqualTo((int) Math.ceil(SHARE * truth.size()));
    }
    assertThat(network).allSatisfy(n -> assertThat(n).isGreaterThan(-0.01));
  }

  /**
   * The same live run in SGLang's format ({@code --engine sglang}: each server's time stats lines,
   * docs/formats/pd.md#live), {@link #SGLANG_REQUESTS} requests loaded in-process: every request
   * attributed with its own transfer ({@code request}) and every server component within max(1 ms,
   * 1%) of the truth.
   */
  @Test
  void sglangFormatServesTheSameModel() throws Exception {
    Path served = dir.resolve("served-sglang");
    Path clients = dir.resolve("client_timings_sglang.csv");
    Path db = dir.resolve("pd-sglang.duckdb");
    StringWriter out = new StringWriter();
    Thread server =
        serveInThread(out, "pd-serve-sglang", served, "prefill-saturated", "--engine", "sglang");
    try {
      int port = LiveSimulator.awaitPort(out, server);
      run(
          "loadgen",
          "--url",
          "http://127.0.0.1:" + port,
          "--api",
          "completions",
          "--concurrency",
          "8",
          "--requests",
          Integer.toString(SGLANG_REQUESTS),
          "--prompt-tokens",
          "400",
          "--max-tokens",
          "12",
          "--id-prefix",
          "pdsg-",
          "--out",
          clients.toString());
    } finally {
      server.interrupt();
      server.join(30_000);
    }
    assertThat(server.isAlive()).as("simulate --serve --pd --engine sglang stopped").isFalse();
    run(
        "ingest",
        "--db",
        db.toString(),
        "--engine",
        "sglang",
        "--year",
        Integer.toString(Instant.now().atZone(ZoneOffset.UTC).getYear()),
        "--zone",
        "UTC",
        "prefill-0=" + served.resolve("prefill-0/server.log"),
        "decode-0=" + served.resolve("decode-0/server.log"));
    run("clients", "--db", db.toString(), clients.toString());
    run("correlate", "--db", db.toString());
    Map<String, Map<String, String>> truth = truth(served.resolve("server_truth.csv"));
    assertThat(truth).hasSize(SGLANG_REQUESTS);
    Map<String, Map<String, Object>> attributed = attributed(db);
    assertThat(attributed.keySet()).as("every request attributed").isEqualTo(truth.keySet());
    int within = 0;
    for (var entry : truth.entrySet()) {
      Map<String, String> t = entry.getValue();
      Map<String, Object> a = attributed.get(entry.getKey());
      assertThat(a.get("decode_instance")).isEqualTo(t.get("decode_instance"));
      assertThat(a.get("kv_transfer_source")).isEqualTo("request");
      boolean ok = Boolean.TRUE.equals(a.get("included"));
      for (String[] c :
          new String[][] {
            {"prefill_queue_ms", "queue_ms"},
            {"prefill_ms", "prefill_ms"},
            {"kv_transfer_ms", "kv_transfer_ms"},
            {"decode_queue_ms", "decode_queue_ms"},
            {"decode_ms", "decode_ms"}
          }) {
        double expected = Double.parseDouble(t.get(c[0]));
        Object actual = a.get(c[1]);
        ok &=
            actual != null
                && Math.abs(((Number) actual).doubleValue() - expected)
                    <= Math.max(1.0, 0.01 * Math.abs(expected));
      }
      within += ok ? 1 : 0;
    }
    System.out.printf(
        Locale.ROOT,
        "PdServeAccuracyIT (sglang): %d requests, every server component %.1f%%%n",
        truth.size(),
        100.0 * within / truth.size());
    assertThat(within).isGreaterThanOrEqualTo((int) Math.ceil(SHARE * truth.size()));
  }

  /** {@code simulate --serve 0 --pd SCENARIO} in a thread of this JVM, printing to {@code out}. */
  static Thread serveInThread(
      StringWriter out, String name, Path served, String scenario, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "simulate",
                "--serve",
                "0",
                "--pd",
                scenario,
                "--api",
                "completions",
                "--out",
                served.toString()));
    args.addAll(List.of(extra));
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(new StringWriter(), true));
    Thread thread = new Thread(() -> command.execute(args.toArray(String[]::new)), name);
    thread.start();
    return thread;
  }
}
