package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The whole product against a live server: {@code simulate --serve} (in this JVM) streams
 * completions in real time and writes its vLLM log and OTLP export as it goes; {@code ingest
 * --follow} (a JVM of its own, embedded broker) tails both into DuckDB while {@code loadgen} (in
 * this JVM) drives the server; then {@code clients} and {@code correlate} attribute every request,
 * which is compared with the server's own truth ({@code server_truth.csv}).
 *
 * <p>Tolerances. Server components: the engine's export and the truth file print the same engine
 * instants at 1 µs resolution (seconds with 6 decimals, ms with 3), so queue, prefill and decode
 * may differ by rounding only: {@value #ROUNDING_MS} ms. Network: the client brackets the server on
 * the same monotonic clock (it sends before the server stamps the arrival and reads each token
 * after the engine produced it), so network time is positive up to the same rounding; how large it
 * is depends on HTTP handling and thread hand-offs on a loaded machine, so it is only bounded
 * generously ({@value #NETWORK_MEDIAN_MS} ms median, {@value #NETWORK_MAX_MS} ms worst).
 */
// run alone, after the others (pom.xml, failsafe execution serial-its): network time is bounded
// (median 100 ms) and SIGTERM must end ingest in time
@Tag("serial")
final class LiveEndToEndIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final Pattern COMMITTED = Pattern.compile("(\\d+) records committed");
  private static final double ROUNDING_MS = 0.01;
  private static final double NETWORK_MEDIAN_MS = 100;
  private static final double NETWORK_MAX_MS = 5000;
  private static final int REQUESTS = 150;
  private static final int WARMUP = 10;

  @TempDir Path dir;

  @Test
  void attributesEveryLiveRequestAsTheServerDidIt() throws Exception {
    Path served = dir.resolve("server");
    Path db = dir.resolve("live.duckdb");
    Path clients = dir.resolve("client_timings.csv");
    LiveSimulator server = LiveSimulator.start(served, "--heartbeat-s", "0.02");
    int year;
    try {
      int port = server.port();
      year = Instant.now().atZone(ZoneOffset.UTC).getYear();
      try (ChildJvm ingest = follow(served, db, year)) {
        ingest.await(line -> committed(line) >= 0, ChildJvm.START_TIMEOUT, "a status line");
        loadgen(port, clients);
        server.stop();
        long expected = eventCount(served, year);
        ingest.await(line -> committed(line) >= expected, TIMEOUT, expected + " committed");
        assertThat(ingest.stop()).as(ingest.output()).isZero();
      }
    } finally {
      server.stop();
    }
    run("clients", "--db", db.toString(), "--format", "csv", clients.toString());
    run("correlate", "--db", db.toString());
    check(attributed(db), truth(served.resolve("server_truth.csv")));
  }

  private ChildJvm follow(Path served, Path db, int year) throws Exception {
    Files.createDirectories(served);
    return ChildJvm.start(
        dir,
        "ingest",
        "512m",
        "ingest",
        "--follow",
        "--db",
        db.toString(),
        "--engine",
        "vllm",
        "--instance",
        "live",
        "--year",
        Integer.toString(year),
        "--zone",
        "UTC",
        "--status-interval",
        "100ms",
        "--commit-interval",
        "100ms",
        served.resolve("server.log").toString(),
        served.resolve("otlp.jsonl").toString());
  }

  private static void loadgen(int port, Path clients) {
    run(
        "loadgen",
        "--url",
        "http://127.0.0.1:" + port,
        "--api",
        "completions",
        "--concurrency",
        "12",
        "--requests",
        Integer.toString(REQUESTS),
        "--warmup",
        Integer.toString(WARMUP),
        "--prompt-tokens",
        "200",
        "--max-tokens",
        "24",
        "--id-prefix",
        "live-",
        "--out",
        clients.toString());
  }

  /** Records the product's parsers make of the finished files: what the follower must deliver. */
  private static long eventCount(Path served, int year) throws Exception {
    ParseOptions parse = new ParseOptions();
    parse.engine = "vllm";
    parse.instance = "live";
    parse.year = year;
    parse.zone = "UTC";
    AtomicLong records = new AtomicLong();
    TailOutput counter =
        new TailOutput() {
          @Override
          public void event(EngineEvent event) {
            records.incrementAndGet();
          }

          @Override
          public void rejected(Rejection rejection, byte[] rawLine) {
            records.incrementAndGet();
          }
        };
    for (SourceFile file :
        SourceFiles.resolve(
            List.of(served.resolve("server.log"), served.resolve("otlp.jsonl")), parse)) {
      new SourceParser(
              file.path().toString(),
              file.engine(),
              Parsers.create(file.engine(), file.parse()),
              counter)
          .readFile(file.path(), parse.maxLineBytes);
    }
    assertThat(records.get()).as("records in the server's files").isPositive();
    return records.get();
  }

  private static long committed(String line) {
    Matcher matcher = COMMITTED.matcher(line);
    return matcher.find() ? Long.parseLong(matcher.group(1)) : -1;
  }

  private static void run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    assertThat(command.execute(args)).as(String.join(" ", args) + ": " + err).isZero();
  }

  private record Truth(double queueMs, double prefillMs, double decodeMs) {}

  private record Row(
      String key,
      boolean warmup,
      String joinStatus,
      double queueMs,
      double prefillMs,
      double decodeMs,
      double networkTtftMs,
      double networkMs) {}

  private static Map<String, Truth> truth(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    List<String> header = List.of(lines.get(0).split(","));
    Map<String, Truth> truth = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] fields = line.split(",", -1);
      if (!fields[header.indexOf("status")].equals("ok")) {
        continue;
      }
      truth.put(
          fields[header.indexOf("request_id")],
          new Truth(
              Double.parseDouble(fields[header.indexOf("queue_ms")]),
              Double.parseDouble(fields[header.indexOf("prefill_ms")]),
              Double.parseDouble(fields[header.indexOf("decode_ms")])));
    }
    return truth;
  }

  private static List<Row> attributed(Path db) throws Exception {
    List<Row> rows = new ArrayList<>();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT request_key, warmup, join_status, queue_ms, prefill_ms, decode_ms,"
                    + " network_ttft_ms, network_ms FROM request_attribution")) {
      while (result.next()) {
        rows.add(
            new Row(
                result.getString(1),
                result.getBoolean(2),
                result.getString(3),
                result.getDouble(4),
                result.getDouble(5),
                result.getDouble(6),
                result.getDouble(7),
                result.getDouble(8)));
      }
    }
    return rows;
  }

  private static void check(List<Row> rows, Map<String, Truth> truth) {
    List<Row> measured = rows.stream().filter(row -> !row.warmup()).toList();
    assertThat(rows).hasSize(REQUESTS + WARMUP);
    long matched = measured.stream().filter(row -> row.joinStatus().equals("matched")).count();
    List<Double> errors = new ArrayList<>();
    List<Double> queue = new ArrayList<>();
    List<Double> prefill = new ArrayList<>();
    List<Double> decode = new ArrayList<>();
    List<Double> networkTtft = new ArrayList<>();
    List<Double> network = new ArrayList<>();
    List<Double> decodeSeen = new ArrayList<>();
    for (Row row : measured) {
      Truth server = truth.get(row.key());
      assertThat(server).as("server truth of " + row.key()).isNotNull();
      queue.add(Math.abs(row.queueMs() - server.queueMs()));
      prefill.add(Math.abs(row.prefillMs() - server.prefillMs()));
      decode.add(Math.abs(row.decodeMs() - server.decodeMs()));
      networkTtft.add(row.networkTtftMs());
      network.add(row.networkMs());
      // client decode (last − first token as read) minus the server's: delivery jitter only
      decodeSeen.add(row.networkMs() - row.networkTtftMs());
    }
    errors.addAll(queue);
    errors.addAll(prefill);
    errors.addAll(decode);
    System.out.printf(
        Locale.ROOT,
        "LiveEndToEndIT: join rate %d/%d (%.1f%%) of non-warm-up requests; |attribution - server"
            + " truth| ms: queue max %.4f median %.4f, prefill max %.4f median %.4f, decode max"
            + " %.4f median %.4f; network_ttft ms min %.3f median %.3f max %.3f; network ms min"
            + " %.3f median %.3f max %.3f; client-seen minus server decode ms min %.3f median"
            + " %.3f max %.3f; server queue ms median %.3f%n",
        matched,
        measured.size(),
        100.0 * matched / measured.size(),
        max(queue),
        median(queue),
        max(prefill),
        median(prefill),
        max(decode),
        median(decode),
        min(networkTtft),
        median(networkTtft),
        max(networkTtft),
        min(network),
        median(network),
        max(network),
        min(decodeSeen),
        median(decodeSeen),
        max(decodeSeen),
        median(measured.stream().map(row -> truth.get(row.key()).queueMs()).toList()));
    assertThat(matched).as("joined by ID").isEqualTo(measured.size());
    assertThat(max(errors)).as("attribution error, ms").isLessThanOrEqualTo(ROUNDING_MS);
    assertThat(min(networkTtft)).as("network_ttft, ms").isGreaterThanOrEqualTo(-ROUNDING_MS);
    assertThat(min(network)).as("network, ms").isGreaterThanOrEqualTo(-ROUNDING_MS);
    assertThat(median(network)).as("median network, ms").isLessThan(NETWORK_MEDIAN_MS);
    assertThat(max(network)).as("worst network, ms").isLessThan(NETWORK_MAX_MS);
  }

  private static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  private static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted.length == 0 ? Double.NaN : sorted[(sorted.length - 1) / 2];
  }
}
