package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The live half of the recipe, with the lake writer standing in for the sinks: {@code correlate
 * --follow --lake} and {@code serve --lake --db} run side by side while the lake grows, {@code sql}
 * and {@code report} run against the analysis file between rounds, and a real Prometheus scrapes
 * the exporter: its request count ends equal to the attribution's included rows although every
 * round rewrote them (one observation per request), and the row counts come from the lake
 * (docs/live.md#live-attribution).
 */
final class LiveMetricsIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final Pattern LISTENING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/metrics");

  @TempDir Path dir;

  @Test
  void prometheusFollowsTheLiveAttributionOncePerRequest() throws Exception {
    Optional<Path> prometheus = PrometheusServer.binary();
    assumeTrue(prometheus.isPresent(), PrometheusServer.MISSING);
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
          start(
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
      ChildJvm serve =
          ChildJvm.start(
              dir,
              "serve",
              "256m",
              "serve",
              "--lake",
              lake.toString(),
              "--db",
              live.toString(),
              "--port",
              "0",
              "--poll-interval",
              "200ms");
      try {
        int port = servePort(serve);
        try (PrometheusServer prom =
            PrometheusServer.start(prometheus.get(), dir, "127.0.0.1:" + port)) {
          await(followErr, "round 1");
          prom.awaitValue("max(tokentrace_store_event_rows)", v -> v > 0);
          assertThat(retry(() -> run("sql", "--db", live.toString(), "slowest_requests")))
              .contains("request");
          writer.commit(events.subList(events.size() / 2, events.size()));
          await(followErr, "round 2");
          long included = retry(() -> included(live));
          assertThat(included).isPositive();
          prom.awaitValue("sum(tokentrace_request_e2e_seconds_count)", v -> v == included);
          assertThat(retry(() -> run("report", "--db", live.toString())))
              .contains("## Latency attribution");
          // later scrapes, more polls of the same rows: still once per request
          prom.awaitValue("count_over_time(tokentrace_exporter_store_up[1m])", v -> v >= 8);
          assertThat(prom.scalar("sum(tokentrace_request_e2e_seconds_count)"))
              .isEqualTo((double) included);
        }
      } finally {
        follower.interrupt();
        follower.join(WAIT.toMillis());
        serve.close();
      }
    }
  }

  private interface Attempt<T> {
    T get();
  }

  /** A command on the analysis file may meet a round holding it: try again shortly. */
  private static <T> T retry(Attempt<T> attempt) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        return attempt.get();
      } catch (IllegalStateException | AssertionError held) {
        if (System.nanoTime() > deadline) {
          throw held;
        }
        Thread.sleep(100);
      }
    }
  }

  private static long included(Path file) {
    try (Database db = Database.openReadOnly(DatabaseSettings.file(file))) {
      return db.jdbi()
          .withHandle(
              h ->
                  h.createQuery("SELECT count(*) FROM request_attribution WHERE included")
                      .mapTo(Long.class)
                      .one());
    }
  }

  private static String run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int code = command.execute(args);
    if (code != 0) {
      throw new IllegalStateException(String.join(" ", args) + " exit " + code + ": " + err);
    }
    return out.toString();
  }

  /**
   * The port a serve child listens on. Serve runs in a JVM of its own, as deployed: DuckDB opens a
   * file once per process, so in the test's JVM its ATTACH would meet correlate's open of the file.
   */
  private static int servePort(ChildJvm serve) throws Exception {
    Matcher matcher =
        LISTENING.matcher(
            serve.await(line -> LISTENING.matcher(line).find(), ChildJvm.START_TIMEOUT, "serve"));
    assertThat(matcher.find()).isTrue();
    return Integer.parseInt(matcher.group(1));
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

  private static void await(StringWriter err, String text) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!err.toString().contains(text)) {
      assertThat(System.nanoTime()).as("waiting for '%s' in%n%s", text, err).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
