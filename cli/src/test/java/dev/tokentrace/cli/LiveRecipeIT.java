package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

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
  private static final Pattern LISTENING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/metrics");
  private static final Pattern SERVING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/");

  @TempDir Path dir;

  @Test
  void theLiveRecipeRunsAsWritten() throws Exception {
    Optional<Path> prometheus = PrometheusServer.binary();
    assumeTrue(prometheus.isPresent(), PrometheusServer.MISSING);
    Path served = Files.createDirectories(dir.resolve("server"));
    Path lake = dir.resolve("lake");
    Path live = dir.resolve("live.duckdb");
    Path clients = dir.resolve("client_timings.csv");
    StringWriter serverOut = new StringWriter();
    Thread server =
        start(
            serverOut,
            new StringWriter(),
            "simulate",
            "--serve",
            "0",
            "--out",
            served.toString(),
            "--api",
            "completions",
            "--max-batch",
            "8",
            "--step-base-ms",
            "4",
            "--step-per-seq-ms",
            "0.2",
            "--prefill-per-token-ms",
            "0.01");
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
      int port = awaitPort(serverOut, server, SERVING);
      run(
          "loadgen",
          "--url",
          "http://127.0.0.1:" + port,
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
      run("clients", "--db", live.toString(), "--format", "csv", clients.toString());
      awaitLake(lake); // serve needs the lake the sink creates (correlate --follow retries)
      follower =
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
              "300ms");
      serve =
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
              "300ms");
      int metricsPort = servePort(serve);
      try (PrometheusServer prom =
          PrometheusServer.start(prometheus.get(), dir, "127.0.0.1:" + metricsPort)) {
        // every measured request attributed once the lake holds the server's rows
        waitForIncluded(live, 100);
        assertThat(
                run(
                    "sql",
                    "--lake",
                    lake.toString(),
                    "-e",
                    "SELECT count(*) AS n FROM request_timing"))
            .contains("n");
        assertThat(retry(() -> run("report", "--db", live.toString())))
            .contains("## Latency attribution");
        prom.awaitValue(
            "sum(tokentrace_request_e2e_seconds_count)", v -> v == (double) included(live));
        prom.awaitValue("max(tokentrace_store_event_rows)", v -> v > 0);
      }
    } finally {
      if (serve != null) {
        serve.close();
      }
      for (Thread thread : new Thread[] {follower, server}) {
        if (thread != null) {
          thread.interrupt();
          thread.join(WAIT.toMillis());
        }
      }
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
        long included = included(live);
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

  private static int awaitPort(StringWriter out, Thread serve, Pattern pattern)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline && serve.isAlive()) {
      Matcher matcher = pattern.matcher(out.toString());
      if (matcher.find()) {
        return Integer.parseInt(matcher.group(1));
      }
      Thread.sleep(50);
    }
    throw new AssertionError("serve did not start: " + out);
  }
}
