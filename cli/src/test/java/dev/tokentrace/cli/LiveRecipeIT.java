package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's live recipe as written, on one machine: {@code simulate --serve} as the engine,
 * {@code ingest --follow --lake} (shipper and lake sink with an embedded broker, its own JVM),
 * {@code loadgen} as the client, {@code clients} into the analysis file, {@code correlate --follow
 * --lake}, {@code serve --lake --db}, {@code sql --lake} and {@code report} while it runs, and a
 * real Prometheus scraping the exporter until its request count equals the attribution's included
 * rows (docs/live.md#live-attribution).
 */
final class LiveRecipeIT {
  private static final Duration WAIT = Duration.ofSeconds(180);

  @TempDir Path dir;

  @Test
  void theLiveRecipeRunsAsWritten() throws Exception {
    Path prometheus = TestPrometheus.binaryOrSkip();
    Path served = Files.createDirectories(dir.resolve("server"));
    Path lake = dir.resolve("lake");
    Path live = dir.resolve("live.duckdb");
    Path clients = dir.resolve("client_timings.csv");
    LiveSimulator server = LiveSimulator.start(served);
    StringWriter followErr = new StringWriter();
    Thread follower = null;
    ChildJvm serve = null;
    try (ChildJvm ingest =
        ChildJvm.start(
            dir,
            "ingest",
            "512m",
            "ingest",
            "--follow",
            "--lake",
            lake.toString(),
            "--engine",
            "vllm",
            "--instance",
            "live",
            "--zone",
            "UTC",
            "--status-interval",
            "200ms",
            served.resolve("server.log").toString(),
            served.resolve("otlp.jsonl").toString())) {
      TestPrometheus.run(
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
      TestPrometheus.run("clients", "--db", live.toString(), "--format", "csv", clients.toString());
      awaitLake(lake); // serve needs the lake the sink creates (correlate --follow retries)
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
              "300ms");
      serve = TestPrometheus.serve(dir, lake, live, "300ms");
      try (PrometheusServer prom =
          TestPrometheus.scraping(prometheus, dir, TestPrometheus.servePort(serve))) {
        // every measured request attributed once the lake holds the server's rows
        waitForIncluded(live, 100);
        assertThat(
                TestPrometheus.run(
                    "sql",
                    "--lake",
                    lake.toString(),
                    "-e",
                    "SELECT count(*) AS n FROM request_timing"))
            .contains("n");
        assertThat(
                TestPrometheus.retry(() -> TestPrometheus.run("report", "--db", live.toString())))
            .contains("## Latency attribution");
        prom.awaitValue(
            "sum(tokentrace_request_e2e_seconds_count)",
            v -> v == (double) TestPrometheus.included(live));
        prom.awaitValue("max(tokentrace_store_event_rows)", v -> v > 0);
      }
    } finally {
      if (serve != null) {
        serve.close();
      }
      if (follower != null) {
        follower.interrupt();
        follower.join(WAIT.toMillis());
      }
      server.stop();
    }
  }

  private static void awaitLake(Path lake) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try (Database reader = dev.tokentrace.store.lake.Lake.openReader(lake)) {
        return;
      } catch (IllegalArgumentException notYet) {
        assertThat(System.nanoTime()).as(notYet.getMessage()).isLessThan(deadline);
        Thread.sleep(200);
      }
    }
  }

  /** Waits until the analysis file holds at least {@code least} included requests. */
  private static long waitForIncluded(Path live, long least) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        long included = TestPrometheus.included(live);
        if (included >= least) {
          return included;
        }
      } catch (IllegalStateException held) {
        // a round holds the file
      }
      assertThat(System.nanoTime()).as("%d included requests", least).isLessThan(deadline);
      Thread.sleep(200);
    }
  }
}
