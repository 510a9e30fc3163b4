package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.store.lake.LakeMarker;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code serve --lake --bootstrap-servers}: the lake sinks' consumer lag per topic partition
 * (docs/live.md#consumer-lag). Lines are shipped before any sink runs: the lag is what Kafka holds;
 * a sink catches up: the lag is at most 1 on every partition (a transaction's commit marker); the
 * broker stops: {@code tokentrace_exporter_kafka_up} is 0, no lag is exported (never the last value
 * as if current), and the store's metrics go on. With Prometheus installed, the dashboard's and
 * rules' Kafka expressions evaluate against it and return data. Without Kafka options the metrics
 * do not exist; asking for lag without a lake is a usage error.
 */
final class ServeLagIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Pattern LISTENING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/metrics");
  private static final Pattern LAG =
      Pattern.compile("(?m)^tokentrace_consumer_lag_records\\{([^}]*)\\} (\\S+)$");
  private static final String PREFIX = "lagtest";
  private static final int LINES = 300;

  @TempDir Path dir;

  @Test
  void lagFollowsTheSinksAndVanishesWithKafka() throws Exception {
    Path log = dir.resolve("server.log");
    StringBuilder text = new StringBuilder();
    for (int serial = 1; serial <= LINES; serial++) {
      text.append(LogWriter.line("lag", serial));
    }
    Files.writeString(log, text);
    Path lake = dir.resolve("lake");
    LakeMarker.of(PREFIX, "lag-group").createOrCheck(lake);
    EmbeddedBroker broker = EmbeddedBroker.start();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Thread serve = null;
    try {
      String servers = broker.bootstrapServers();
      run(
          "ship",
          "--follow",
          "--once",
          "--bootstrap-servers",
          servers,
          "--topic-prefix",
          PREFIX,
          "--shipper-id",
          PREFIX,
          "--engine",
          "vllm",
          "--year",
          "2026",
          "--instance",
          "gpu0",
          log.toString());
      serve =
          start(
              out,
              err,
              "serve",
              "--lake",
              lake.toString(),
              "--bootstrap-servers",
              servers,
              "--port",
              "0",
              "--poll-interval",
              "200ms");
      int port = awaitPort(out, serve);
      // nothing sunk yet: the lag is every record Kafka holds (events, markers of transactions)
      String before = awaitMetrics(port, m -> total(m) >= LINES, "the shipped records as lag");
      assertThat(before).contains("tokentrace_exporter_kafka_up 1.0");
      assertThat(partitions(before))
          .as(before)
          .contains(PREFIX + ".events/0", PREFIX + ".rejects/0");
      assertThat(before).contains("group=\"lag-group\"");

      run(
          "sink",
          "--bootstrap-servers",
          servers,
          "--topic-prefix",
          PREFIX,
          "--lake",
          lake.toString(),
          "--group",
          "lag-group");
      // caught up: at most the offset of the last transaction's commit marker, which follows the
      // manifest's next offset until more records arrive (docs/live.md#consumer-lag)
      String after =
          awaitMetrics(
              port,
              m ->
                  !lags(m).isEmpty()
                      && lags(m).stream().allMatch(lag -> lag <= 1)
                      // the lag and the store's rows are read by two separate polls
                      && m.contains("tokentrace_store_event_rows{"),
              "the lag of a caught-up sink and the rows it stored");
      assertThat(lags(after)).allMatch(value -> value <= 1.0);
      assertThat(after).contains("tokentrace_store_event_rows{");

      Optional<Path> prometheus = PrometheusServer.binary();
      if (prometheus.isPresent()) {
        checkKafkaExpressions(prometheus.get(), port);
      } else {
        System.err.println("ServeLagIT: " + PrometheusServer.MISSING);
      }

      broker.close();
      String down =
          awaitMetrics(port, m -> m.contains("tokentrace_exporter_kafka_up 0.0"), "kafka_up 0");
      assertThat(lags(down)).as("no lag while Kafka is unreachable").isEmpty();
      assertThat(down).contains("tokentrace_exporter_store_up 1.0");
    } finally {
      if (serve != null) {
        serve.interrupt();
        serve.join(WAIT.toMillis());
      }
      broker.close();
    }
  }

  @Test
  void withoutKafkaOptionsThereIsNoLagAndWithoutALakeItIsAUsageError() throws Exception {
    Path lake = dir.resolve("lake");
    LakeMarker.of(PREFIX, "lag-group").createOrCheck(lake);
    StringWriter out = new StringWriter();
    Thread serve =
        start(
            out,
            new StringWriter(),
            "serve",
            "--lake",
            lake.toString(),
            "--port",
            "0",
            "--poll-interval",
            "200ms");
    try {
      String metrics = get(awaitPort(out, serve));
      assertThat(metrics)
          .contains("tokentrace_exporter_store_up")
          .doesNotContain("tokentrace_consumer_lag_records")
          .doesNotContain("tokentrace_exporter_kafka_up");
    } finally {
      serve.interrupt();
      serve.join(WAIT.toMillis());
    }
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    assertThat(
            command.execute(
                "serve",
                "--db",
                dir.resolve("x.duckdb").toString(),
                "--bootstrap-servers",
                "127.0.0.1:1",
                "--port",
                "0"))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("consumer lag needs --lake DIR");
  }

  /** The dashboard's and the rules' expressions over the Kafka metrics, against Prometheus. */
  private void checkKafkaExpressions(Path binary, int port) throws Exception {
    JsonNode dashboard =
        new ObjectMapper()
            .readTree(
                PrometheusServer.deploy().resolve("grafana/tokentrace-dashboard.json").toFile());
    List<String> exprs = new ArrayList<>();
    dashboard
        .path("panels")
        .forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
    List<String> kafka = exprs.stream().filter(PrometheusExporterIT::needsKafka).toList();
    assertThat(kafka).hasSizeGreaterThanOrEqualTo(2);
    String rules =
        Files.readString(PrometheusServer.deploy().resolve("prometheus/tokentrace-rules.yml"));
    List<String> ruleExprs = PrometheusExporterIT.ruleExpressions(rules);
    List<String> kafkaRules = ruleExprs.stream().filter(PrometheusExporterIT::needsKafka).toList();
    assertThat(kafkaRules).hasSizeGreaterThanOrEqualTo(2);
    try (PrometheusServer prom = PrometheusServer.start(binary, dir, "127.0.0.1:" + port)) {
      prom.awaitValue("count_over_time(tokentrace_exporter_kafka_up[1m])", v -> v >= 2);
      for (String expr : kafka) {
        String promql = expr.replace("$__rate_interval", "1m");
        assertThat(prom.vector(promql)).as("dashboard query %s returns data", promql).isNotEmpty();
      }
      for (String expr : kafkaRules) {
        assertThat(prom.query(expr).path("status").asText()).as(expr).isEqualTo("success");
      }
      // a recording rule over the lag has data (3 partitions, at most a marker each)
      prom.await(
          "the lag recording rule",
          () -> !prom.vector("tokentrace:consumer_lag_records:sum").isEmpty());
      assertThat(prom.scalar("sum(tokentrace:consumer_lag_records:sum)")).isLessThanOrEqualTo(3);
    }
  }

  private static double total(String metrics) {
    return lags(metrics).stream().mapToDouble(Double::doubleValue).sum()
        + (lags(metrics).isEmpty() ? Double.NaN : 0);
  }

  private static List<Double> lags(String metrics) {
    List<Double> values = new ArrayList<>();
    Matcher matcher = LAG.matcher(metrics);
    while (matcher.find()) {
      values.add(Double.parseDouble(matcher.group(2)));
    }
    return values;
  }

  private static List<String> partitions(String metrics) {
    List<String> names = new ArrayList<>();
    Matcher matcher = LAG.matcher(metrics);
    while (matcher.find()) {
      String labels = matcher.group(1);
      names.add(label(labels, "topic") + "/" + label(labels, "partition"));
    }
    return names;
  }

  private static String label(String labels, String name) {
    Matcher matcher = Pattern.compile(name + "=\"([^\"]*)\"").matcher(labels);
    return matcher.find() ? matcher.group(1) : "";
  }

  private static String awaitMetrics(int port, Predicate<String> done, String what)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String metrics = "";
    while (System.nanoTime() < deadline) {
      metrics = get(port);
      if (done.test(metrics)) {
        return metrics;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("waited for " + what + "; last /metrics:\n" + metrics);
  }

  private static String get(int port) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                    .timeout(Duration.ofSeconds(30))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    return response.body();
  }

  private static void run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    assertThat(command.execute(args)).as(String.join(" ", args) + ": " + err).isZero();
  }

  private static Thread start(StringWriter out, StringWriter err, String... args) {
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    Thread thread = new Thread(() -> command.execute(args), args[0]);
    thread.start();
    return thread;
  }

  private static int awaitPort(StringWriter out, Thread serve) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline && serve.isAlive()) {
      Matcher matcher = LISTENING.matcher(out.toString());
      if (matcher.find()) {
        return Integer.parseInt(matcher.group(1));
      }
      Thread.sleep(50);
    }
    throw new AssertionError("serve did not start: " + out);
  }
}
