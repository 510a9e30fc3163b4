package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live half of the recipe, with the lake writer standing in for the sinks: {@code correlate
 * --follow --lake} and {@code serve --lake --db} run side by side while the lake grows, {@code sql}
 * and {@code report} run against the analysis file between rounds, and a real Prometheus scrapes
 * the exporter: its request count ends equal to the attribution's included rows although every
 * round rewrote them (one observation per request), and the row counts come from the lake
 * (docs/live.md#live-attribution).
 */
final class LiveMetricsIT {
  @TempDir Path dir;

  @Test
  void prometheusFollowsTheLiveAttributionOncePerRequest() throws Exception {
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
            "200",
            "--concurrency",
            "8");
    List<EngineEvent> events = ScenarioDatabase.parse(scenario);
    Path lake = dir.resolve("lake");
    Path live = dir.resolve("live.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(live))) {
      ScenarioDatabase.loadClients(db, scenario, scenario.clientFile());
    }
    StringWriter followErr = new StringWriter();
    try (LakeFixture writer = new LakeFixture(lake)) {
      writer.commit(events.subList(0, events.size() / 2));
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
      ChildJvm serve = TestPrometheus.serve(dir, lake, live, "200ms");
      try {
        try (PrometheusServer prom =
            TestPrometheus.scraping(prometheus, dir, TestPrometheus.servePort(serve))) {
          TestPrometheus.await(followErr, "round 1");
          prom.awaitValue("max(tokentrace_store_event_rows)", v -> v > 0);
          assertThat(
                  TestPrometheus.retry(
                      () -> TestPrometheus.run("sql", "--db", live.toString(), "slowest_requests")))
              .contains("request");
          writer.commit(events.subList(events.size() / 2, events.size()));
          TestPrometheus.await(followErr, "round 2");
          long included = TestPrometheus.retry(() -> TestPrometheus.included(live));
          assertThat(included).isPositive();
          prom.awaitValue("sum(tokentrace_request_e2e_seconds_count)", v -> v == included);
          assertThat(
                  TestPrometheus.retry(() -> TestPrometheus.run("report", "--db", live.toString())))
              .contains("## Latency attribution");
          // later scrapes, more polls of the same rows: still once per request
          prom.awaitValue("count_over_time(tokentrace_exporter_store_up[1m])", v -> v >= 8);
          assertThat(prom.scalar("sum(tokentrace_request_e2e_seconds_count)"))
              .isEqualTo((double) included);
        }
      } finally {
        follower.interrupt();
        follower.join(TestPrometheus.WAIT.toMillis());
        serve.close();
      }
    }
  }
}
