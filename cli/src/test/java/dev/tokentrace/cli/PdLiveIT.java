package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prefill/decode run ingested live (docs/formats/pd.md#live): {@code simulate --serve --pd
 * slow-link} (two prefill and two decode servers, in this JVM) under {@code loadgen}; one {@code
 * ship --follow} of the four servers' OTLP exports, the decode servers' logs (KV Transfer metrics
 * lines, one per second here) and the client CSV, each server's files named by its instance; {@code
 * sink --follow --lake}; {@code correlate --follow --lake}; {@code serve --lake}; and a real
 * Prometheus (Debian's {@code prometheus}; the test is skipped, saying so, where it is absent)
 * scraping the exporter. It ends when Prometheus holds {@code
 * tokentrace_request_component_seconds{component="kv_transfer"}} for each of the four
 * prefill/decode pairs ({@code server_instance="prefill-P/decode-D"}) and the lake's attribution
 * has every request as a P/D request.
 */
final class PdLiveIT {
  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final String PREFIX = "pdlive";
  private static final int REQUESTS = 48;

  @TempDir Path dir;

  @Test
  void aPdRunIngestsLiveIntoPrometheus() throws Exception {
    Path prometheus = TestPrometheus.binaryOrSkip();
    String kafka = FaultFixture.sharedBroker();
    Path served = dir.resolve("served");
    Path lake = dir.resolve("lake");
    Path live = dir.resolve("live.duckdb");
    Path clients = dir.resolve("client_timings.csv");
    StringWriter serverOut = new StringWriter();
    Thread server =
        PdServeAccuracyIT.serveInThread(
            serverOut, "pd-live", served, "slow-link", "--pd-stats-interval", "1");
    StringWriter loadErr = new StringWriter();
    StringWriter followErr = new StringWriter();
    Thread loadgen = null;
    Thread follower = null;
    try (ChildJvm sink =
        ChildJvm.start(
            dir,
            "sink",
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
            "pdlive-lake")) {
      int port = LiveSimulator.awaitPort(serverOut, server);
      loadgen =
          TestPrometheus.start(
              new StringWriter(),
              loadErr,
              "loadgen",
              "--url",
              "http://127.0.0.1:" + port,
              "--api",
              "completions",
              "--concurrency",
              "4",
              "--requests",
              Integer.toString(REQUESTS),
              "--prompt-tokens",
              "300",
              "--max-tokens",
              "6",
              "--id-prefix",
              "pdlive-",
              "--out",
              clients.toString());
      List<String> ship =
          new ArrayList<>(
              List.of(
                  "ship",
                  "--follow",
                  "--bootstrap-servers",
                  kafka,
                  "--topic-prefix",
                  PREFIX,
                  "--zone",
                  "UTC",
                  "--run",
                  "pd-live"));
      List<Path> files = new ArrayList<>(List.of(clients));
      for (String instance : List.of("prefill-0", "prefill-1", "decode-0", "decode-1")) {
        Path otlp = served.resolve(instance).resolve("otlp.jsonl");
        ship.add(instance + "=" + otlp);
        files.add(otlp);
        if (instance.startsWith("decode")) {
          Path log = served.resolve(instance).resolve("server.log");
          ship.add(instance + "=" + log);
          files.add(log);
        }
      }
      awaitFiles(files);
      ship.add(clients.toString());
      try (ChildJvm shipper = ChildJvm.start(dir, "ship", "256m", ship.toArray(String[]::new))) {
        awaitLake(lake);
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
                    "1s");
            PrometheusServer prom =
                TestPrometheus.scraping(prometheus, dir, TestPrometheus.servePort(serve))) {
          loadgen.join(WAIT.toMillis());
          assertThat(loadgen.isAlive()).as("loadgen ended: %s", loadErr).isFalse();
          server.interrupt(); // the decode servers log their last KV Transfer metrics lines
          server.join(WAIT.toMillis());
          String pairs =
              "sum by (server_instance) (tokentrace_request_component_seconds_count"
                  + "{component=\"kv_transfer\"})";
          Map<String, Double> perPair = new TreeMap<>();
          try {
            prom.await(
                "kv_transfer observations for the four prefill/decode pairs",
                () -> {
                  perPair.clear();
                  for (JsonNode series : prom.vector(pairs)) {
                    perPair.put(
                        series.path("metric").path("server_instance").asText(),
                        series.path("value").get(1).asDouble());
                  }
                  return perPair.size() == 4;
                });
          } catch (IllegalStateException e) {
            throw new AssertionError(
                "per pair "
                    + perPair
                    + "\nship: "
                    + shipper.output()
                    + "\ncorrelate --follow: "
                    + followErr
                    + "\nserve: "
                    + serve.output(),
                e);
          }
          assertThat(perPair.keySet())
              .containsExactly(
                  "prefill-0/decode-0",
                  "prefill-0/decode-1",
                  "prefill-1/decode-0",
                  "prefill-1/decode-1");
          assertThat(perPair.values()).allSatisfy(n -> assertThat(n).isPositive());
          System.out.println("PdLiveIT: kv_transfer observations per pair " + perPair);
          assertThat(
                  prom.scalar(
                      "sum(tokentrace_request_component_seconds_sum{component=\"kv_transfer\"})"))
              .isPositive();
          awaitAllPd(lake, followErr);
        } finally {
          follower.interrupt();
          follower.join(WAIT.toMillis());
          follower = null;
        }
        assertThat(shipper.stop()).as(shipper.output()).isIn(0, 143);
      }
      sink.stopSink();
    } finally {
      if (loadgen != null) {
        loadgen.interrupt();
        loadgen.join(WAIT.toMillis());
      }
      if (follower != null) {
        follower.interrupt();
        follower.join(WAIT.toMillis());
      }
      server.interrupt();
      server.join(WAIT.toMillis());
    }
  }

  /** Waits until the lake's attribution has every request as a P/D request with its transfer. */
  private static void awaitAllPd(Path lake, StringWriter followErr) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try (Database reader = Lake.openReader(lake);
          var connection = reader.newConnection();
          var statement = connection.createStatement();
          var rows =
              statement.executeQuery(
                  "SELECT count(*) FROM request_attribution WHERE included"
                      + " AND decode_instance IS NOT NULL AND kv_transfer_ms IS NOT NULL")) {
        rows.next();
        if (rows.getLong(1) == REQUESTS) {
          return;
        }
      } catch (IllegalArgumentException | java.sql.SQLException notYet) {
        // no attribution version yet
      }
      assertThat(System.nanoTime())
          .as("%d P/D requests attributed in the lake:%n%s", REQUESTS, followErr)
          .isLessThan(deadline);
      Thread.sleep(300);
    }
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
}
