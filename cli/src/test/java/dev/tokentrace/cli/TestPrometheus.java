package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * What the tests around a real Prometheus share: the binary (or a skip naming the Debian package),
 * a Prometheus scraping an exporter ({@link PrometheusServer}, whose HTTP API the tests query), the
 * port a {@code serve} child exports on, the attribution's included rows that the exporter's
 * request count must end equal to, and the retry loop for commands that may meet a {@code correlate
 * --follow} round holding the analysis file.
 */
final class TestPrometheus {
  static final Duration WAIT = Duration.ofSeconds(180);
  private static final Pattern LISTENING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/metrics");

  private TestPrometheus() {}

  /** The prometheus binary; skips the test (naming the Debian package) where it is absent. */
  static Path binaryOrSkip() {
    Optional<Path> binary = PrometheusServer.binary();
    assumeTrue(binary.isPresent(), PrometheusServer.MISSING);
    return binary.get();
  }

  /** A Prometheus scraping the exporter on loopback {@code port} every second. */
  static PrometheusServer scraping(Path binary, Path dir, int port) throws IOException {
    return PrometheusServer.start(binary, dir, "127.0.0.1:" + port);
  }

  /**
   * The port a {@code serve} child exports on, once it says so. Serve runs in a JVM of its own, as
   * deployed: DuckDB opens a file once per process, so in the test's JVM its ATTACH would meet
   * correlate's open of the file.
   */
  static int servePort(ChildJvm serve) throws Exception {
    Matcher matcher =
        LISTENING.matcher(
            serve.await(line -> LISTENING.matcher(line).find(), ChildJvm.START_TIMEOUT, "serve"));
    assertThat(matcher.find()).isTrue();
    return Integer.parseInt(matcher.group(1));
  }

  /**
   * {@code serve --lake LAKE --db LIVE --port 0} in a JVM of its own, polling every {@code poll}:
   * the exporter Prometheus scrapes ({@link #servePort} says where).
   */
  static ChildJvm serve(Path dir, Path lake, Path live, String poll) throws IOException {
    return ChildJvm.start(
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
        poll);
  }

  /** One try of something that may meet a round holding the analysis file. */
  interface Attempt<T> {
    T get();
  }

  /**
   * Tries {@code attempt} until it returns, for at most {@link #WAIT}: a command on the analysis
   * file may meet a round holding it ({@link IllegalStateException}) or see it before the round
   * wrote what it checks ({@link AssertionError}); the last failure is thrown.
   */
  static <T> T retry(Attempt<T> attempt) throws InterruptedException {
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

  /** The attributed requests the exporter counts: {@code request_attribution WHERE included}. */
  static long included(Path file) {
    try (Database db = Database.openReadOnly(DatabaseSettings.file(file))) {
      return db.jdbi()
          .withHandle(
              h ->
                  h.createQuery("SELECT count(*) FROM request_attribution WHERE included")
                      .mapTo(Long.class)
                      .one());
    }
  }

  /** Runs a command in this JVM; its stdout, or {@link IllegalStateException} with its stderr. */
  static String run(String... args) {
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

  /** Runs a long-running command (e.g. {@code correlate --follow}) on a thread of its own. */
  static Thread start(StringWriter out, StringWriter err, String... args) {
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    Thread thread = new Thread(() -> command.execute(args), args[0]);
    thread.start();
    return thread;
  }

  /** Waits until {@code err} holds {@code text} (e.g. a follower's "round 2"). */
  static void await(StringWriter err, String text) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!err.toString().contains(text)) {
      assertThat(System.nanoTime()).as("waiting for '%s' in%n%s", text, err).isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
