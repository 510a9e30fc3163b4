package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The guide's live recipe (docs/guide.md, "Live attribution, Prometheus and Grafana") as written,
 * on one machine, each command as the guide gives it: {@code simulate --serve} as the engine,
 * {@code loadgen} as the client writing its CSV, one {@code ship --follow} of the engine's log, its
 * OTLP export and the client CSV, two {@code sink --follow --lake} of one {@code --group}, {@code
 * correlate --follow --lake}, {@code serve --lake}, {@code sql --lake} and {@code report --lake}
 * while it runs, and a real Prometheus (Debian's {@code prometheus}; that part is skipped, saying
 * so, where it is absent) scraping the exporter. What differs from the guide: the broker is the
 * test JVM's shared one (so the topics get a {@code --topic-prefix} of their own), paths and ports
 * are the test's, and Prometheus scrapes every second. At the end the lake's attribution equals a
 * batch {@code correlate --lake} of the same lake ({@code EXCEPT ALL} both ways) and Prometheus
 * counts each included request once (docs/live.md#the-live-recipe).
 */
final class LiveRecipeIT {
  private static final Duration WAIT = Duration.ofSeconds(180);
  private static final String PREFIX = "recipe";
  private static final String GROUP = "recipe-lake";

  @TempDir Path dir;

  @Test
  void theLiveRecipeRunsAsWritten() throws Exception {
    Optional<Path> prometheus = PrometheusServer.binary();
    if (prometheus.isEmpty()) {
      System.err.println(
          "LiveRecipeIT: the Prometheus part is skipped: " + PrometheusServer.MISSING);
    }
    String kafka = FaultFixture.sharedBroker();
    Path served = Files.createDirectories(dir.resolve("server"));
    Path lake = dir.resolve("lake");
    Path live = dir.resolve("live.duckdb");
    Path clients = dir.resolve("client_timings.csv");
    LiveSimulator server = LiveSimulator.start(served);
    StringWriter loadErr = new StringWriter();
    StringWriter followErr = new StringWriter();
    Thread loadgen = null;
    Thread follower = null;
    try (ChildJvm sink1 = sink("sink-1", kafka, lake);
        ChildJvm sink2 = sink("sink-2", kafka, lake)) {
      loadgen =
          TestPrometheus.start(
              new StringWriter(),
              loadErr,
              "loadgen",
              "--url",
              server.url(),
              "--api",
              "completions",
              "--concurrency",
              "8",
              "--requests",
              "120",
              "--warmup",
              "5",
              "--prompt-tokens",
              "100",
              "--max-tokens",
              "16",
              "--id-prefix",
              "recipe-",
              "--out",
              clients.toString());
      Path log = served.resolve("server.log");
      Path otlp = served.resolve("otlp.jsonl");
      awaitFiles(List.of(log, otlp, clients));
      try (ChildJvm ship =
          ChildJvm.start(
              dir,
              "ship",
              "256m",
              "ship",
              "--follow",
              "--bootstrap-servers",
              kafka,
              "--topic-prefix",
              PREFIX,
              "--instance",
              "gpu0",
              "--run",
              "bench-7",
              log.toString(),
              otlp.toString(),
              clients.toString())) {
        awaitLake(lake); // serve reads the lake the sinks create (correlate --follow retries)
        follower =
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
                "1s");
        try (ChildJvm serve =
            ChildJvm.start(
                dir,
                "serve",
                "256m",
                "serve",
                "--lake",
                lake.toString(),
                "--port",
                "0",
                "--poll-interval",
                "1s")) {
          int port = TestPrometheus.servePort(serve);
          try (PrometheusServer prom =
              prometheus.isPresent()
                  ? TestPrometheus.scraping(prometheus.get(), dir, port)
                  : null) {
            // while it runs: SQL over the lake, and a report from the lake and the analysis file
            TestPrometheus.await(followErr, "round 1 ");
            assertThat(
                    TestPrometheus.retry(
                        () ->
                            TestPrometheus.run(
                                "sql",
                                "--lake",
                                lake.toString(),
                                "-e",
                                "SELECT count(*) AS n FROM request_attribution WHERE included")))
                .contains("n");
            assertThat(
                    TestPrometheus.retry(
                        () ->
                            TestPrometheus.run(
                                "report", "--lake", lake.toString(), "--db", live.toString())))
                .contains("## Latency attribution");
            loadgen.join(WAIT.toMillis());
            assertThat(loadgen.isAlive()).as("loadgen ended: %s", loadErr).isFalse();
            server.stop(); // its log and OTLP export are complete
            long requests = Files.readAllLines(clients).size() - 1L;
            long included = awaitSettled(lake, requests, followErr);
            assertThat(included).as(followErr.toString()).isGreaterThanOrEqualTo(100);
            if (prom != null) {
              prom.awaitValue("sum(tokentrace_request_e2e_seconds_count)", v -> v == included);
              prom.awaitValue("max(tokentrace_store_event_rows)", v -> v > 0);
            }
          }
        } finally {
          follower.interrupt();
          follower.join(WAIT.toMillis());
          follower = null;
        }
        Path batch = dir.resolve("batch.duckdb");
        TestPrometheus.run(
            "correlate",
            "--lake",
            lake.toString(),
            "--db",
            batch.toString(),
            "--no-lake-attribution");
        assertLakeAttributionEquals(lake, batch);
        assertThat(ship.stop()).as(ship.output()).isIn(0, 143);
      }
      sink1.stopSink();
      sink2.stopSink();
    } finally {
      if (loadgen != null) {
        loadgen.interrupt();
        loadgen.join(WAIT.toMillis());
      }
      if (follower != null) {
        follower.interrupt();
        follower.join(WAIT.toMillis());
      }
      server.stop();
    }
  }

  /** {@code sink --follow --lake} of the recipe's group, a JVM of its own. */
  private ChildJvm sink(String name, String kafka, Path lake) throws Exception {
    return ChildJvm.start(
        dir,
        name,
        "384m",
        "sink",
        "--follow",
        "--bootstrap-servers",
        kafka,
        "--topic-prefix",
        PREFIX,
        "--lake",
        lake.toString(),
        "--group",
        GROUP);
  }

  private static void awaitFiles(List<Path> files) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!files.stream().allMatch(Files::exists)) {
      assertThat(System.nanoTime()).as("waiting for %s", files).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static void awaitLake(Path lake) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try (Database reader = Lake.openReader(lake)) {
        return;
      } catch (IllegalArgumentException notYet) {
        assertThat(System.nanoTime()).as(notYet.getMessage()).isLessThan(deadline);
        Thread.sleep(200);
      }
    }
  }

  /**
   * Waits until the lake holds every request on both sides and the lake's attribution covers them
   * all (a round after the last rows came in); the included requests then.
   */
  private static long awaitSettled(Path lake, long requests, StringWriter followErr)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try (Database reader = Lake.openReader(lake);
          Connection connection = reader.newConnection();
          Statement statement = connection.createStatement()) {
        long clientRows = count(statement, "SELECT count(*) FROM client_timing");
        long timings = count(statement, "SELECT count(*) FROM request_timing");
        long matched =
            count(
                statement,
                "SELECT count(*) FROM request_attribution WHERE server_rows > 0"
                    + " AND client_rows > 0");
        if (clientRows == requests && timings == requests && matched == requests) {
          return count(statement, "SELECT count(*) FROM request_attribution WHERE included");
        }
      } catch (IllegalArgumentException | java.sql.SQLException notYet) {
        // no attribution version yet
      }
      assertThat(System.nanoTime())
          .as("%d requests on both sides and attributed in the lake:%n%s", requests, followErr)
          .isLessThan(deadline);
      Thread.sleep(300);
    }
  }

  /** The lake's request_attribution equals the batch file's ({@code EXCEPT ALL} both ways). */
  private static void assertLakeAttributionEquals(Path lake, Path batch) throws Exception {
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + batch + "' AS b (READ_ONLY)");
      assertThat(count(statement, "SELECT count(*) FROM b.request_attribution WHERE included"))
          .isPositive();
      assertThat(
              count(
                  statement,
                  "SELECT count(*) FROM (FROM request_attribution EXCEPT ALL"
                      + " FROM b.request_attribution)"))
          .as("lake rows not in the batch attribution")
          .isZero();
      assertThat(
              count(
                  statement,
                  "SELECT count(*) FROM (FROM b.request_attribution EXCEPT ALL"
                      + " FROM request_attribution)"))
          .as("batch rows not in the lake's attribution")
          .isZero();
    }
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
