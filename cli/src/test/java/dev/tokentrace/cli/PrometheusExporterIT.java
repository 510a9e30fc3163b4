package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.exporter.DuckDbFileStore;
import dev.tokentrace.exporter.MetricsExporter;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exporter scraped by a real Prometheus (Debian's {@code prometheus}, skipped where absent):
 * histogram_quantile(0.95) of each component agrees with the store's SQL P95 (quantile_cont) within
 * one bucket; the histograms count each included request once although the store is read on every
 * poll; and every PromQL expression of the shipped Grafana dashboard and Prometheus rules evaluates
 * without error, returning data where the store has it (docs/live.md#prometheus-and-grafana).
 *
 * <p>Half of the attributed requests are held back from {@code request_attribution} at first and
 * put back later, as a later attribution adds them: so the counters grow while Prometheus scrapes
 * and rate() has something to show.
 */
final class PrometheusExporterIT {
  private static final Pattern EXPR =
      Pattern.compile("(?m)^\\s+expr: (>-\\n((?:\\s{10}.*\\n)+)|(.*))");

  @TempDir Path dir;

  @Test
  void prometheusAgreesWithTheStoreAndEveryShippedQueryEvaluates() throws Exception {
    Path prometheus = TestPrometheus.binaryOrSkip();
    Path root = dir.resolve("samples");
    SampleScenarios.Scenario vllm =
        ScenarioDatabase.simulate(
            root,
            "vllm",
            "a",
            31,
            "--format-version",
            "0.16",
            "--requests",
            "240",
            "--concurrency",
            "8");
    SampleScenarios.Scenario sglang =
        ScenarioDatabase.simulate(
            root, "sglang", "b", 32, "--requests", "240", "--concurrency", "8");
    Path file = dir.resolve("metrics.duckdb");
    try (Database db = ScenarioDatabase.open(dir, "metrics")) {
      ScenarioDatabase.load(db, vllm);
      ScenarioDatabase.load(db, sglang);
      ScenarioDatabase.attribute(db);
      db.jdbi()
          .useHandle(
              h -> {
                h.execute(
                    "CREATE TABLE held_back AS SELECT * FROM request_attribution"
                        + " WHERE client_source_line % 2 = 0");
                h.execute("DELETE FROM request_attribution WHERE client_source_line % 2 = 0");
              });
    }
    MetricsExporter exporter =
        new MetricsExporter(new DuckDbFileStore(DatabaseSettings.file(file)), Clock.systemUTC());
    int firstHalf = exporter.poll().knownRequests();
    assertThat(firstHalf).isPositive();
    try (HTTPServer server = exporter.serve("127.0.0.1", 0);
        PrometheusServer prom = TestPrometheus.scraping(prometheus, dir, server.getPort())) {
      prom.awaitValue("sum(tokentrace_request_e2e_seconds_count)", v -> v == firstHalf);
      prom.awaitValue("count_over_time(tokentrace_exporter_store_up[1m])", v -> v >= 3);
      try (Database db = Database.open(DatabaseSettings.file(file))) {
        db.jdbi()
            .useHandle(
                h -> {
                  h.execute("INSERT INTO request_attribution SELECT * FROM held_back");
                  h.execute("DROP TABLE held_back");
                });
      }
      exporter.poll();
      int all = exporter.poll().knownRequests(); // a second read of the same rows adds nothing
      assertThat(all).isGreaterThan(firstHalf);
      prom.awaitValue("sum(tokentrace_request_e2e_seconds_count)", v -> v == all);
      prom.awaitValue("count_over_time(tokentrace_exporter_store_up[1m])", v -> v >= 6);

      Map<String, Double> sqlP95 = sqlP95(file);
      assertThat(sqlP95).hasSize(MetricsExporter.REQUEST_COMPONENTS.size());
      for (String component : MetricsExporter.REQUEST_COMPONENTS) {
        String promql =
            "histogram_quantile(0.95, sum by (le) (tokentrace_request_component_seconds_bucket"
                + "{component=\""
                + component
                + "\"}))";
        double estimate = prom.scalar(promql);
        double exact = sqlP95.get(component);
        assertThat(Math.abs(bucket(estimate) - bucket(exact)))
            .as("%s: Prometheus %s s vs SQL quantile_cont %s s", component, estimate, exact)
            .isLessThanOrEqualTo(1);
      }
      assertThat(
              prom.scalar("sum(tokentrace_request_component_seconds_count{component=\"decode\"})"))
          .isEqualTo(includedWith(file, "decode_ms"));

      checkDashboard(prom);
      checkRules(prom);
    }
  }

  /** Every panel and variable query of the dashboard evaluates and returns data. */
  private static void checkDashboard(PrometheusServer prom) throws Exception {
    JsonNode dashboard =
        new ObjectMapper()
            .readTree(
                PrometheusServer.deploy().resolve("grafana/tokentrace-dashboard.json").toFile());
    List<String> exprs = new ArrayList<>();
    dashboard
        .path("panels")
        .forEach(p -> p.path("targets").forEach(t -> exprs.add(t.path("expr").asText())));
    assertThat(exprs).hasSizeGreaterThanOrEqualTo(12);
    for (String expr : exprs) {
      if (needsKafka(expr)) {
        continue; // no Kafka here: ServeLagIT checks these
      }
      String promql =
          expr.replace("$__rate_interval", "1m")
              .replace("$run", ".*")
              .replace("$server_instance", ".*");
      List<JsonNode> result = prom.vector(promql);
      assertThat(result).as("dashboard query %s returns data", promql).isNotEmpty();
      assertThat(result.stream().anyMatch(PrometheusExporterIT::isNumber))
          .as("dashboard query %s returns a number: %s", promql, result)
          .isTrue();
    }
    dashboard
        .path("templating")
        .path("list")
        .forEach(
            variable -> {
              Matcher m =
                  Pattern.compile("label_values\\((\\w+), (\\w+)\\)")
                      .matcher(variable.path("definition").asText());
              assertThat(m.matches()).as(variable.toString()).isTrue();
              try {
                assertThat(prom.labelValues(m.group(2), m.group(1)))
                    .as("variable %s", variable.path("name").asText())
                    .isNotEmpty();
              } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
  }

  /**
   * Prometheus loaded every shipped rule and evaluated it without error; each expression also
   * evaluates through the query API, and each recording rule has data.
   */
  private static void checkRules(PrometheusServer prom) throws Exception {
    String rules =
        Files.readString(PrometheusServer.deploy().resolve("prometheus/tokentrace-rules.yml"));
    int count = 0;
    for (String expr : ruleExpressions(rules)) {
      assertThat(prom.query(expr).path("status").asText()).as(expr).isEqualTo("success");
      count++;
    }
    assertThat(count).isEqualTo(RULES);
    prom.await(
        "every rule evaluated",
        () -> {
          List<JsonNode> evaluated = new ArrayList<>();
          prom.rules().forEach(g -> g.path("rules").forEach(evaluated::add));
          return evaluated.size() == RULES
              && evaluated.stream()
                  .allMatch(
                      r ->
                          r.path("health").asText().equals("ok")
                              && !r.path("lastEvaluation").asText().startsWith("0001"));
        });
    prom.rules()
        .forEach(
            group ->
                group
                    .path("rules")
                    .forEach(
                        rule -> {
                          assertThat(rule.path("health").asText())
                              .as(rule.toString())
                              .isEqualTo("ok");
                          if (rule.path("type").asText().equals("recording")
                              && !needsKafka(rule.path("query").asText())) {
                            try {
                              String name = rule.path("name").asText();
                              prom.await(name + " has data", () -> !prom.vector(name).isEmpty());
                            } catch (RuntimeException e) {
                              throw e;
                            }
                          }
                        }));
  }

  /** The rules shipped in deploy/prometheus/tokentrace-rules.yml. */
  static final int RULES = 15;

  /**
   * Whether a shipped expression reads the Kafka metrics, which exist only with {@code serve
   * --bootstrap-servers} (docs/live.md#consumer-lag): checked by ServeLagIT, not here.
   */
  static boolean needsKafka(String expr) {
    return expr.contains("tokentrace_consumer_lag_records")
        || expr.contains("tokentrace_exporter_kafka_up")
        || expr.contains("tokentrace:consumer_lag");
  }

  /** Every {@code expr:} of a rules file, folded ones on one line. */
  static List<String> ruleExpressions(String rules) {
    List<String> exprs = new ArrayList<>();
    Matcher m = EXPR.matcher(rules);
    while (m.find()) {
      exprs.add(m.group(2) != null ? m.group(2).strip().replaceAll("\\s+", " ") : m.group(3));
    }
    return exprs;
  }

  private static boolean isNumber(JsonNode sample) {
    String value = sample.path("value").get(1).asText();
    return !value.equals("NaN") && !value.contains("Inf");
  }

  /** The index of the bucket a value falls in: the first upper bound at or above it. */
  private static int bucket(double value) {
    double[] bounds = MetricsExporter.BUCKETS;
    for (int i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]) {
        return i;
      }
    }
    return bounds.length;
  }

  private static Map<String, Double> sqlP95(Path file) {
    try (Database db = Database.openReadOnly(DatabaseSettings.file(file))) {
      return db
          .jdbi()
          .withHandle(
              h ->
                  h.createQuery(
                          "SELECT quantile_cont(network_ms, 0.95) / 1000 AS network,"
                              + " quantile_cont(client_queue_ms, 0.95) / 1000 AS client_queue,"
                              + " quantile_cont(queue_ms, 0.95) / 1000 AS server_queue,"
                              + " quantile_cont(prefill_ms, 0.95) / 1000 AS prefill,"
                              + " quantile_cont(decode_ms, 0.95) / 1000 AS decode"
                              + " FROM request_attribution WHERE included")
                      .mapToMap()
                      .one())
          .entrySet()
          .stream()
          .filter(e -> e.getValue() != null)
          .collect(
              java.util.stream.Collectors.toMap(
                  Map.Entry::getKey, e -> ((Number) e.getValue()).doubleValue()));
    }
  }

  private static double includedWith(Path file, String column) {
    try (Database db = Database.openReadOnly(DatabaseSettings.file(file))) {
      return db.jdbi()
          .withHandle(
              h ->
                  h.createQuery(
                          "SELECT count(" + column + ") FROM request_attribution WHERE included")
                      .mapTo(Long.class)
                      .one());
    }
  }
}
