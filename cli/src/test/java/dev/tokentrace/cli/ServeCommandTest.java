package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code tokentrace serve} as a user runs it: on loopback, a free port with {@code --port 0},
 * /metrics answering with the exporter's metrics, stopped by an interrupt (in-process) with
 * "stopped"; a missing file is said and served anyway (the exporter retries).
 */
final class ServeCommandTest {
  private static final Pattern LISTENING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/metrics");

  @TempDir Path dir;

  @Test
  void servesMetricsOnLoopbackUntilStopped() throws Exception {
    Path file = dir.resolve("run.duckdb");
    Database.open(DatabaseSettings.file(file)).close();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Thread serve = start(out, err, "serve", "--db", file.toString(), "--port", "0");
    try {
      int port = awaitPort(out, serve);
      String metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics)
          .contains("tokentrace_exporter_store_up 1.0")
          .contains("tokentrace_exporter_polls_total{result=\"ok\"}");
    } finally {
      serve.interrupt();
      serve.join(30_000);
    }
    assertThat(serve.isAlive()).isFalse();
    assertThat(out.toString()).contains("serve: stopped");
  }

  @Test
  void aMissingFileIsSaidAndRetried() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Path missing = dir.resolve("missing.duckdb");
    Thread serve = start(out, err, "serve", "--db", missing.toString(), "--port", "0");
    try {
      awaitPort(out, serve);
      assertThat(err.toString()).contains(missing.toString()).contains("retrying every");
    } finally {
      serve.interrupt();
      serve.join(30_000);
    }
  }

  /**
   * Start in any order (docs/live.md#start-order): {@code serve --lake} before any sink created the
   * lake serves {@code tokentrace_exporter_store_up 0} and reads the lake once it appears (it
   * exited 2 before, which the systemd unit does not restart).
   */
  @Test
  void aLakeNotCreatedYetIsWaitedFor() throws Exception {
    Path lake = dir.resolve("lake");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Thread serve =
        start(
            out,
            err,
            "serve",
            "--lake",
            lake.toString(),
            "--port",
            "0",
            "--poll-interval",
            "200ms");
    try {
      int port = awaitPort(out, serve);
      assertThat(metrics(port)).contains("tokentrace_exporter_store_up 0.0");
      assertThat(err.toString()).contains("no lake yet").contains("retrying every");
      new LakeFixture(lake).close(); // a sink creates the lake
      String metrics = metrics(port);
      for (int i = 0; i < 600 && !metrics.contains("tokentrace_exporter_store_up 1.0"); i++) {
        Thread.sleep(50);
        metrics = metrics(port);
      }
      assertThat(metrics).contains("tokentrace_exporter_store_up 1.0");
      assertThat(serve.isAlive()).isTrue();
    } finally {
      serve.interrupt();
      serve.join(30_000);
    }
    assertThat(out.toString()).contains("serve: stopped");
  }

  private static String metrics(int port) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  private static Thread start(StringWriter out, StringWriter err, String... args) {
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    Thread thread = new Thread(() -> command.execute(args), "serve");
    thread.start();
    return thread;
  }

  private static int awaitPort(StringWriter out, Thread serve) throws InterruptedException {
    for (int i = 0; i < 600 && serve.isAlive(); i++) {
      Matcher matcher = LISTENING.matcher(out.toString());
      if (matcher.find()) {
        return Integer.parseInt(matcher.group(1));
      }
      Thread.sleep(50);
    }
    throw new AssertionError("serve did not start: " + out);
  }
}
