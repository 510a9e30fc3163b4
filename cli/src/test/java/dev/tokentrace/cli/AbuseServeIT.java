package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.exporter.HttpLimits;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Abuse suite (docs/live.md#abuse-suite): {@code serve} under slow clients. Fifty connections each
 * send a request line and then one header line every 2 s, never finishing; meanwhile a normal
 * scrape must answer within 1 s (Prometheus' default scrape timeout is 10 s), and the slow
 * connections are closed by the request deadline. The server runs in a JVM of its own, since the
 * JDK reads its HTTP deadlines once per JVM.
 */
@Tag("serial") // latency bounds: alone on the machine
final class AbuseServeIT {
  private static final Pattern LISTENING = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/metrics");
  private static final int SLOW_CLIENTS = 50;

  @TempDir Path dir;

  @Test
  void aScrapeAnswersWithin1sWhile50SlowClientsTrickleHeaders() throws Exception {
    Path file = dir.resolve("run.duckdb");
    Database.open(DatabaseSettings.file(file)).close();
    List<Socket> slow = new ArrayList<>();
    try (ChildJvm serve =
        ChildJvm.start(dir, "serve", "256m", "serve", "--db", file.toString(), "--port", "0")) {
      Matcher listening =
          LISTENING.matcher(
              serve.await(l -> LISTENING.matcher(l).find(), ChildJvm.START_TIMEOUT, "listening"));
      assertThat(listening.find()).isTrue();
      int port = Integer.parseInt(listening.group(1));
      URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
      HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
      scrape(client, metrics); // warm: the first answer loads the classes of the response path

      for (int i = 0; i < SLOW_CLIENTS; i++) {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.getOutputStream().write("GET /metrics HTTP/1.1\r\n".getBytes(US_ASCII));
        socket.getOutputStream().flush();
        slow.add(socket);
      }
      Thread trickle = new Thread(() -> trickle(slow), "slow-clients");
      trickle.setDaemon(true);
      trickle.start();
      Thread.sleep(500); // every slow request is being read by now
      long slowest = 0;
      // four scrapes over the time the slow clients are held, up to past the request deadline
      for (int round = 0; round < 4; round++) {
        slowest = Math.max(slowest, scrape(client, metrics));
        Thread.sleep(1000);
      }
      assertThat(slowest)
          .as("slowest scrape (ms) beside %d slow clients", SLOW_CLIENTS)
          .isLessThan(1000);
      // the request deadline closed the slow connections: each reads end-of-stream (or a reset)
      for (Socket socket : slow) {
        socket.setSoTimeout((HttpLimits.REQUEST_SECONDS + 5) * 1000);
        assertThat(closedByServer(socket)).as("slow connection closed by the server").isTrue();
      }
      trickle.interrupt();
      assertThat(serve.stop()).isZero();
    } finally {
      for (Socket socket : slow) {
        socket.close();
      }
    }
  }

  /** One scrape; its latency in ms. */
  private static long scrape(HttpClient client, URI metrics) throws Exception {
    long started = System.nanoTime();
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    long ms = (System.nanoTime() - started) / 1_000_000;
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body()).contains("tokentrace_exporter_store_up");
    return ms;
  }

  /** Each slow client sends one more header line every 2 s until its connection is closed. */
  private static void trickle(List<Socket> sockets) {
    int header = 0;
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(2000);
      } catch (InterruptedException e) {
        return;
      }
      header++;
      for (Socket socket : sockets) {
        try {
          OutputStream out = socket.getOutputStream();
          out.write(("X-Slow-" + header + ": 1\r\n").getBytes(US_ASCII));
          out.flush();
        } catch (IOException e) {
          // closed by the server: what the deadline is for
        }
      }
    }
  }

  private static boolean closedByServer(Socket socket) {
    try {
      InputStream in = socket.getInputStream();
      while (in.read() >= 0) {
        // a response (an error status) may come before the close; read to the end
      }
      return true;
    } catch (java.net.SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset by the server
    }
  }
}
