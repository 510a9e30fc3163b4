package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.exporter.MetricsExporter;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.Lake;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live half of the recipe, with the lake writer standing in for the sinks, and the exporter's
 * faults (docs/live.md#faults-of-the-exporter-and-of-prometheus): {@code correlate --follow --lake}
 * and {@code serve --lake} run side by side while the lake grows in three commits, {@code sql} and
 * {@code report} run against the analysis file between rounds, and a real Prometheus scrapes the
 * exporter.
 *
 * <ol>
 *   <li>After the first commit Prometheus counts each included request once although every round
 *       rewrote the attribution.
 *   <li>Prometheus is stopped, the second commit is attributed and exported while it is down, and
 *       Prometheus starts again on the same data directory: no counter or bucket of the exporter
 *       ever went down ({@code resets} 0) nor above the store's count.
 *   <li>{@code serve} is killed ({@code kill -9}), the third commit is attributed while it is down,
 *       and a new {@code serve} on the same port rebuilds its histograms from the lake: the counts
 *       end equal to the lake's included requests (never twice them: the highest sum Prometheus
 *       ever stored is that count), and {@code histogram_quantile(0.95)} of each component agrees
 *       with the lake's SQL P95 within one bucket.
 * </ol>
 */
final class LiveMetricsIT {
  private static final Pattern E2E_COUNT =
      Pattern.compile("(?m)^tokentrace_request_e2e_seconds_count\\{[^}]*\\} (\\S+)$");
  private static final String E2E = "sum(tokentrace_request_e2e_seconds_count)";

  @TempDir Path dir;

  @Test
  void prometheusFollowsTheLiveAttributionOncePerRequestThroughRestarts() throws Exception {
    Path prometheus = TestPrometheus.binaryOrSkip();
    SampleScenarios.Scenario scenario =
        ScenarioDatabase.simulate(
            dir.resolve("samples"),
            "vllm",
            "metrics",
            61,
            "--format-version",
            "0.16",
            "--requests",
            "240",
            "--concurrency",
            "8");
    List<EngineEvent> events = ScenarioDatabase.parse(scenario);
    int third = events.size() / 3;
    Path lake = dir.resolve("lake");
    Path live = dir.resolve("live.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(live))) {
      ScenarioDatabase.loadClients(db, scenario, scenario.clientFile());
    }
    int port = FaultFixture.freePort();
    StringWriter followErr = new StringWriter();
    ChildJvm serve = null;
    try (LakeFixture writer = new LakeFixture(lake)) {
      writer.commit(events.subList(0, third));
      Thread follower =
          TestPrometheus.start(
              new StringWriter(),
              followErr,
              "correlate",
              "--follow",
              "--lake",
              lake.toString(),
              "--db",
              live.toString(),
              "--interval",
              "200ms");
      try {
        serve = serve(port, "serve");
        // 1. once per request, while rounds rewrite the attribution
        PrometheusServer prom = TestPrometheus.scraping(prometheus, dir, port);
        try {
          TestPrometheus.await(followErr, "round 1 ");
          prom.awaitValue("max(tokentrace_store_event_rows)", v -> v > 0);
          assertThat(
                  TestPrometheus.retry(
                      () -> TestPrometheus.run("sql", "--db", live.toString(), "slowest_requests")))
              .contains("request");
          long first = lakeIncluded(lake);
          assertThat(first).isPositive();
          prom.awaitValue(E2E, v -> v == first);
        } finally {
          prom.close();
        }

        // 2. Prometheus down while the pipeline goes on, then back on the same TSDB
        writer.commit(events.subList(third, 2 * third));
        TestPrometheus.await(followErr, "round 2 ");
        long second = lakeIncluded(lake);
        assertThat(second).isPositive();
        awaitExported(port, second);
        prom = TestPrometheus.scraping(prometheus, dir, port);
        try {
          prom.awaitValue(E2E, v -> v == second);
          assertNeverDownNorAbove(prom, second);

          // 3. serve killed mid-run, the last commit attributed while it is down, serve again
          serve.kill();
          writer.commit(events.subList(2 * third, events.size()));
          TestPrometheus.await(followErr, "round 3 ");
          long all = lakeIncluded(lake);
          assertThat(all).isGreaterThanOrEqualTo(second);
          prom.awaitValue("max_over_time(up{job=\"tokentrace\"}[1m])", v -> v == 1);
          prom.awaitValue("min_over_time(up{job=\"tokentrace\"}[1m])", v -> v == 0);
          serve = serve(port, "serve-again");
          prom.awaitValue(E2E, v -> v == all);
          prom.awaitValue("up{job=\"tokentrace\"}", v -> v == 1);
          // rebuilt from the lake: never twice a request, over the whole run
          prom.awaitValue("max_over_time(" + E2E + "[10m:1s])", v -> v == all);
          assertThat(prom.scalar("sum(tokentrace_request_component_seconds_count)"))
              .isLessThanOrEqualTo(5.0 * all);
          assertP95WithinOneBucket(prom, lake);
          assertThat(
                  TestPrometheus.retry(() -> TestPrometheus.run("report", "--db", live.toString())))
              .contains("## Latency attribution");
        } finally {
          prom.close();
        }
      } finally {
        follower.interrupt();
        follower.join(TestPrometheus.WAIT.toMillis());
        if (serve != null) {
          serve.close();
        }
      }
    }
  }

  /** {@code serve --lake} on {@code port} (its histograms from the lake's attribution). */
  private ChildJvm serve(int port, String name) throws Exception {
    ChildJvm serve =
        ChildJvm.start(
            dir,
            name,
            "256m",
            "serve",
            "--lake",
            dir.resolve("lake").toString(),
            "--port",
            String.valueOf(port),
            "--poll-interval",
            "200ms");
    assertThat(TestPrometheus.servePort(serve)).isEqualTo(port);
    return serve;
  }

  /**
   * Across the Prometheus restart no series of the exporter went down (one exporter lifetime:
   * counters and cumulative buckets only grow) and none ever exceeded the store's count.
   */
  private static void assertNeverDownNorAbove(PrometheusServer prom, long included)
      throws Exception {
    assertThat(prom.scalar("sum(resets(tokentrace_request_e2e_seconds_count[10m]))")).isZero();
    assertThat(prom.scalar("sum(resets(tokentrace_request_component_seconds_bucket[10m]))"))
        .isZero();
    assertThat(prom.scalar("sum(resets(tokentrace_request_ttft_seconds_count[10m]))")).isZero();
    prom.awaitValue("max_over_time(" + E2E + "[10m:1s])", v -> v == included);
  }

  /** Waits until the exporter itself (no Prometheus) shows {@code count} requests. */
  private static void awaitExported(int port, long count) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TestPrometheus.WAIT.toNanos();
    String text = "";
    while (System.nanoTime() < deadline) {
      text =
          http.send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      double sum = 0;
      Matcher m = E2E_COUNT.matcher(text);
      while (m.find()) {
        sum += Double.parseDouble(m.group(1));
      }
      if (sum == count) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("the exporter never showed " + count + " requests:\n" + text);
  }

  /** Included requests of the lake's request_attribution, as {@code serve --lake} reads it. */
  private static long lakeIncluded(Path lake) throws Exception {
    return TestPrometheus.retry(
        () -> {
          try (Database reader = Lake.openReader(lake);
              Connection connection = reader.newConnection();
              Statement statement = connection.createStatement();
              ResultSet row =
                  statement.executeQuery(
                      "SELECT count(*) FROM request_attribution WHERE included")) {
            row.next();
            return row.getLong(1);
          } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** histogram_quantile(0.95) of each component within one bucket of the lake's SQL P95. */
  private static void assertP95WithinOneBucket(PrometheusServer prom, Path lake) throws Exception {
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT quantile_cont(network_ms, 0.95) / 1000,"
                    + " quantile_cont(client_queue_ms, 0.95) / 1000,"
                    + " quantile_cont(queue_ms, 0.95) / 1000,"
                    + " quantile_cont(prefill_ms, 0.95) / 1000,"
                    + " quantile_cont(decode_ms, 0.95) / 1000"
                    + " FROM request_attribution WHERE included")) {
      row.next();
      for (int i = 0; i < MetricsExporter.REQUEST_COMPONENTS.size(); i++) {
        String component = MetricsExporter.REQUEST_COMPONENTS.get(i);
        double exact = row.getDouble(i + 1);
        if (row.wasNull()) {
          continue;
        }
        double estimate =
            prom.scalar(
                "histogram_quantile(0.95, sum by (le) (tokentrace_request_component_seconds_bucket"
                    + "{component=\""
                    + component
                    + "\"}))");
        assertThat(Math.abs(bucket(estimate) - bucket(exact)))
            .as("%s: Prometheus %s s vs SQL quantile_cont %s s", component, estimate, exact)
            .isLessThanOrEqualTo(1);
      }
    }
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
}
