package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.Lake;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Client and gateway files streamed through Kafka (docs/follow.md#client-files): {@code ship
 * --follow} tails a client CSV and an NGINX access log while they grow (half-written lines
 * included), next to the engine's logs, and {@code sink --lake} writes them; the attribution of
 * {@code correlate --lake} then equals the one of the same finished files loaded by batch {@code
 * clients} ({@code EXCEPT ALL} both ways empty). A shipper killed with {@code kill -9} mid-file,
 * with lines appended while it is down, resumes with the file's remembered CSV header and stores
 * each row exactly once. Real broker (a child JVM), real DuckDB and Parquet.
 */
final class ClientStreamIT {
  private static final Duration WAIT = Duration.ofSeconds(150);
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final String RUN = "bench-7";

  @TempDir static Path shared;

  private static ChildJvm broker;
  private static String bootstrap;

  @TempDir Path dir;

  private final String prefix = "clients" + PREFIXES.incrementAndGet();

  @BeforeAll
  static void startBroker() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    broker =
        ChildJvm.start(
            shared,
            "broker",
            "512m",
            "broker",
            "--port",
            String.valueOf(port),
            "--data-dir",
            shared.resolve("kafka").toString());
    broker.await(line -> line.startsWith("kafka broker ready on"), ChildJvm.START_TIMEOUT, "ready");
    bootstrap = "127.0.0.1:" + port;
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (broker != null) {
      broker.stop();
    }
  }

  @Test
  void streamedClientAndGatewayRowsGiveTheBatchAttribution() throws Exception {
    SampleScenarios.Scenario scenario =
        ScenarioDatabase.simulate(
            dir.resolve("samples"),
            "vllm",
            "gateway",
            71,
            "--format-version",
            "0.16",
            "--requests",
            "120",
            "--concurrency",
            "8",
            "--gateway-uplink-ms",
            "fixed:4",
            "--gateway-downlink-ms",
            "fixed:3");
    Path live = Files.createDirectories(dir.resolve("live"));
    List<String> files = new ArrayList<>();
    for (Path server : scenario.serverFiles()) {
      Path copy = live.resolve(server.getFileName());
      Files.copy(server, copy);
      files.add(copy.toString());
    }
    Path csv = Files.createFile(live.resolve("client_timings.csv"));
    Path gateway = Files.createFile(live.resolve("nginx_access.log"));
    files.add(csv.toString());
    files.add(gateway.toString());
    Path lake = dir.resolve("lake");
    List<String> csvLines = Files.readAllLines(scenario.clientFile(), UTF_8);
    List<String> gatewayLines =
        Files.readAllLines(scenario.dir().resolve(SampleScenarios.GATEWAY_LOG), UTF_8);
    int expected = csvLines.size() - 1 + gatewayLines.size();
    try (ChildJvm sink = sink("sink", lake);
        ChildJvm ship = ship("ship", files)) {
      // both files grow while they are followed, each chunk ending in half a line
      for (int i = 0; i < Math.max(csvLines.size(), gatewayLines.size()); i += 25) {
        for (var file :
            List.of(
                java.util.Map.entry(csv, csvLines), java.util.Map.entry(gateway, gatewayLines))) {
          List<String> lines = file.getValue();
          int end = Math.min(lines.size(), i + 25);
          if (i < end) {
            appendWhole(file.getKey(), lines, i, end - 1);
            appendHalf(file.getKey(), lines.get(end - 1));
          }
        }
        Thread.sleep(150);
        for (var file :
            List.of(
                java.util.Map.entry(csv, csvLines), java.util.Map.entry(gateway, gatewayLines))) {
          List<String> lines = file.getValue();
          int end = Math.min(lines.size(), i + 25);
          if (i < end) {
            appendRest(file.getKey(), lines.get(end - 1));
          }
        }
      }
      awaitClientRows(lake, expected, ship);
      assertThat(ship.output())
          .contains(csv + ": client file, format csv")
          .contains(gateway + ": client file, format nginx")
          .containsPattern("server\\.log: vllm detected");
      assertThat(ship.stop()).as(ship.output()).isIn(0, 143);
      stopSink(sink);
    }

    Path streamed = dir.resolve("streamed.duckdb");
    run("correlate", "--lake", lake.toString(), "--db", streamed.toString());
    Path batch = dir.resolve("batch.duckdb");
    run("clients", "--db", batch.toString(), "--run-id", RUN, csv.toString(), gateway.toString());
    run("correlate", "--lake", lake.toString(), "--db", batch.toString());
    assertSame(streamed, batch, "client_timing", "");
    assertSame(streamed, batch, "request_attribution", "included");
  }

  @Test
  void aShipperKilledMidFileResumesWithItsHeaderAndStoresEveryRowOnce() throws Exception {
    SampleScenarios.Scenario scenario =
        ScenarioDatabase.simulate(
            dir.resolve("samples"),
            "vllm",
            "killed",
            72,
            "--format-version",
            "0.16",
            "--requests",
            "300",
            "--concurrency",
            "8");
    List<String> lines = Files.readAllLines(scenario.clientFile(), UTF_8);
    Path csv = dir.resolve("client_timings.csv");
    Path lake = dir.resolve("lake");
    int half = lines.size() / 2;
    appendWhole(csv, lines, 0, half); // the header and rows,
    appendHalf(csv, lines.get(half)); // and half of the next row
    try (ChildJvm sink = sink("sink", lake)) {
      try (ChildJvm first = ship("ship-1", List.of(csv.toString()))) {
        awaitClientRows(lake, half / 2, first);
        first.kill();
      }
      // while it is down: the half row is completed, more rows come, the last one half written
      appendRest(csv, lines.get(half));
      appendWhole(csv, lines, half + 1, lines.size() - 1);
      appendHalf(csv, lines.get(lines.size() - 1));
      try (ChildJvm second = ship("ship-2", List.of(csv.toString()))) {
        awaitClientRows(lake, lines.size() - 2, second);
        appendRest(csv, lines.get(lines.size() - 1));
        awaitClientRows(lake, lines.size() - 1, second);
        assertThat(second.output()).contains("resuming at line");
        assertThat(second.stop()).as(second.output()).isIn(0, 143);
      }
      stopSink(sink);
    }
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement()) {
      assertThat(count(statement, "SELECT count(*) FROM client_timing"))
          .isEqualTo(lines.size() - 1);
      assertThat(count(statement, "SELECT count(DISTINCT source_line) FROM client_timing"))
          .isEqualTo(lines.size() - 1);
      assertThat(count(statement, "SELECT count(*) FROM rejects")).isZero();
      Set<String> stored = new HashSet<>();
      try (ResultSet rows =
          statement.executeQuery("SELECT source_line, request_id, run_id FROM client_timing")) {
        while (rows.next()) {
          stored.add(rows.getLong(1) + " " + rows.getString(2) + " " + rows.getString(3));
        }
      }
      Set<String> written = new HashSet<>();
      for (int i = 1; i < lines.size(); i++) {
        written.add((i + 1) + " " + lines.get(i).split(",", 2)[0] + " " + RUN);
      }
      assertThat(stored).isEqualTo(written);
    }
  }

  /** Appends {@code lines[from, to)}, each with its newline. */
  private static void appendWhole(Path file, List<String> lines, int from, int to)
      throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = from; i < to; i++) {
      text.append(lines.get(i)).append('\n');
    }
    append(file, text.toString());
  }

  /** Appends the first half of {@code line}: a line still being written. */
  private static void appendHalf(Path file, String line) throws IOException {
    append(file, line.substring(0, line.length() / 2));
  }

  /** Appends the rest of a line {@link #appendHalf} began, with its newline. */
  private static void appendRest(Path file, String line) throws IOException {
    append(file, line.substring(line.length() / 2) + "\n");
  }

  private static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static void awaitClientRows(Path lake, long rows, ChildJvm ship) throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    long seen = -1;
    while (true) {
      if (Files.exists(lake.resolve("_tokentrace_lake.json"))) {
        try (Database reader = Lake.openReader(lake);
            Connection connection = reader.newConnection();
            Statement statement = connection.createStatement()) {
          seen = count(statement, "SELECT count(*) FROM client_timing");
        }
        if (seen >= rows) {
          return;
        }
      }
      assertThat(ship.alive() && System.nanoTime() < deadline)
          .as("waiting for %d client rows in the lake (%d so far):%n%s", rows, seen, ship.output())
          .isTrue();
      Thread.sleep(300);
    }
  }

  private ChildJvm ship(String name, List<String> files) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "ship",
                "--follow",
                "--bootstrap-servers",
                bootstrap,
                "--topic-prefix",
                prefix,
                "--partitions",
                "2",
                "--shipper-id",
                prefix,
                "--instance",
                "gw",
                "--run",
                RUN,
                "--year",
                "2026",
                "--zone",
                "UTC",
                "--commit-interval",
                "100ms",
                "--poll-interval",
                "20ms",
                "--status-interval",
                "0s"));
    command.addAll(files);
    return ChildJvm.start(dir, name, "256m", command.toArray(String[]::new));
  }

  private ChildJvm sink(String name, Path lake) throws IOException {
    return ChildJvm.start(
        dir,
        name,
        "256m",
        "sink",
        "--follow",
        "--bootstrap-servers",
        bootstrap,
        "--topic-prefix",
        prefix,
        "--lake",
        lake.toString(),
        "--group",
        prefix + "-sinks",
        "--flush-interval",
        "200ms",
        "--status-interval",
        "0s",
        "--duckdb-memory-limit",
        "128MB",
        "--duckdb-threads",
        "1");
  }

  private static void stopSink(ChildJvm sink) throws Exception {
    int code = sink.stop();
    if (code != 0) {
      assertThat(code).as(sink.output()).isEqualTo(143);
    }
  }

  /** Rows of {@code table} (restricted by {@code where}) are the same in both files. */
  private static void assertSame(Path a, Path b, String table, String where) throws Exception {
    String filter = where.isEmpty() ? "" : " WHERE " + where;
    try (Database db = Database.open(DatabaseSettings.inMemory());
        Connection connection = db.newConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + a + "' AS a (READ_ONLY)");
      statement.execute("ATTACH '" + b + "' AS b (READ_ONLY)");
      assertThat(count(statement, "SELECT count(*) FROM a." + table + filter))
          .as(table)
          .isPositive();
      for (String[] pair : new String[][] {{"a", "b"}, {"b", "a"}}) {
        assertThat(
                count(
                    statement,
                    "SELECT count(*) FROM (FROM "
                        + pair[0]
                        + "."
                        + table
                        + " EXCEPT ALL FROM "
                        + pair[1]
                        + "."
                        + table
                        + ")"))
            .as("%s rows of %s not in %s", table, pair[0], pair[1])
            .isZero();
      }
    }
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static String run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    assertThat(command.execute(args)).as(String.join(" ", args) + ": " + err).isZero();
    return err.toString();
  }
}
