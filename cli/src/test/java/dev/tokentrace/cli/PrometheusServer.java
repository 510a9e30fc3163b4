package dev.tokentrace.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A real Prometheus (Debian's {@code prometheus} package) for tests: started on a loopback port
 * with a temporary data directory and the repository's scrape configuration ({@code
 * deploy/prometheus/prometheus.yml}) pointed at one exporter, scraping and evaluating the shipped
 * rules every second; stopped by {@link #close()}.
 */
final class PrometheusServer implements AutoCloseable {
  static final String MISSING =
      "prometheus not installed: apt-get install prometheus (Debian package prometheus)";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(90);

  private final Process process;
  private final int port;
  private final Path log;
  private final HttpClient http = HttpClient.newHttpClient();

  private PrometheusServer(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** The prometheus binary, if installed. */
  static Optional<Path> binary() {
    return Stream.concat(
            Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .map(dir -> Path.of(dir, "prometheus")),
            Stream.of(Path.of("/usr/bin/prometheus")))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /** The repository's deploy/ directory (tests run in the cli module). */
  static Path deploy() {
    return Path.of("").toAbsolutePath().getParent().resolve("deploy");
  }

  /** Starts Prometheus scraping {@code target} (host:port) every second. */
  static PrometheusServer start(Path binary, Path dir, String target) throws IOException {
    Path deploy = deploy();
    String config =
        Files.readString(deploy.resolve("prometheus/prometheus.yml"))
            .replace("127.0.0.1:9464", target)
            .replace("15s", "1s")
            .replace(
                "- tokentrace-rules.yml",
                "- " + deploy.resolve("prometheus/tokentrace-rules.yml").toAbsolutePath());
    Path configFile = Files.writeString(dir.resolve("prometheus.yml"), config);
    int port = freePort();
    Path log = dir.resolve("prometheus.log");
    Process process =
        new ProcessBuilder(
                binary.toString(),
                "--config.file=" + configFile,
                "--storage.tsdb.path=" + Files.createDirectories(dir.resolve("prometheus-data")),
                "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    PrometheusServer server = new PrometheusServer(process, port, log);
    server.await(
        "Prometheus ready",
        () -> {
          HttpResponse<String> ready = server.get("/-/ready");
          return ready != null && ready.statusCode() == 200;
        });
    return server;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Runs an instant query; the whole API answer ({@code status}, {@code data}, {@code error}). */
  JsonNode query(String promql) throws IOException {
    HttpResponse<String> response =
        get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    if (response == null) {
      throw new IOException("Prometheus did not answer " + promql + "; its log: " + log());
    }
    return JSON.readTree(response.body());
  }

  /** The result vector of a query that must succeed. */
  List<JsonNode> vector(String promql) throws IOException {
    JsonNode answer = query(promql);
    if (!"success".equals(answer.path("status").asText())) {
      throw new IllegalStateException(promql + ": " + answer);
    }
    return Stream.of(answer.path("data").path("result")).flatMap(r -> toList(r).stream()).toList();
  }

  /** A label's values over the series matching {@code match}. */
  List<String> labelValues(String label, String match) throws IOException {
    HttpResponse<String> response =
        get(
            "/api/v1/label/"
                + label
                + "/values?match[]="
                + URLEncoder.encode(match, StandardCharsets.UTF_8));
    return toList(JSON.readTree(response.body()).path("data")).stream()
        .map(JsonNode::asText)
        .toList();
  }

  /** The rule groups as {@code /api/v1/rules} gives them. */
  JsonNode rules() throws IOException {
    return JSON.readTree(get("/api/v1/rules").body()).path("data").path("groups");
  }

  /** The single value of a query that returns one sample, NaN when it returns none. */
  double scalar(String promql) throws IOException {
    List<JsonNode> result = vector(promql);
    return result.isEmpty() ? Double.NaN : result.get(0).path("value").get(1).asDouble();
  }

  /** Waits (up to 90 s) until the query returns a sample whose value passes. */
  void awaitValue(String promql, Predicate<Double> done) {
    await(
        promql,
        () -> {
          double value = scalar(promql);
          return !Double.isNaN(value) && done.test(value);
        });
  }

  interface Check {
    boolean done() throws Exception;
  }

  void await(String what, Check check) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try {
        if (check.done()) {
          return;
        }
      } catch (Exception e) {
        // not yet: Prometheus starting, or no scrape yet
      }
      if (System.nanoTime() > deadline || !process.isAlive()) {
        throw new IllegalStateException(
            "waited " + WAIT.toSeconds() + " s for " + what + "; Prometheus log: " + log());
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + what, e);
      }
    }
  }

  private static List<JsonNode> toList(JsonNode array) {
    List<JsonNode> items = new java.util.ArrayList<>();
    array.forEach(items::add);
    return items;
  }

  private HttpResponse<String> get(String path) throws IOException {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(10))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  String log() {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
