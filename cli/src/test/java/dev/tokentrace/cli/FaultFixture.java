package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The processes of a live-tailing fault test, each in a JVM of its own ({@link ChildJvm}): a broker
 * ({@code tokentrace broker}), shippers ({@code ship --follow}) and sinks ({@code sink --follow})
 * of one topic prefix, with the fast commit and poll intervals the fault tests use. One broker
 * child serves every fault test class of a test JVM ({@link #sharedBroker()}); each test uses its
 * own topic prefix on it, and a test that stops its broker starts one of its own ({@link
 * #startBroker}).
 */
final class FaultFixture {
  private static ChildJvm shared;
  private static String sharedBootstrap;

  private final Path dir;
  private final String bootstrap;
  private final String prefix;
  private final List<String> shipOptions = new ArrayList<>();

  /**
   * Processes writing their output under {@code dir}, on the broker at {@code bootstrap}, topics
   * and shipper id {@code prefix}.
   */
  FaultFixture(Path dir, String bootstrap, String prefix) {
    this.dir = dir;
    this.bootstrap = bootstrap;
    this.prefix = prefix;
  }

  /** Options every shipper of this fixture gets (e.g. {@code --partitions 6}). */
  FaultFixture shipOptions(String... options) {
    shipOptions.addAll(List.of(options));
    return this;
  }

  String bootstrap() {
    return bootstrap;
  }

  String prefix() {
    return prefix;
  }

  /**
   * The broker child shared by the fault tests of this JVM, started on first use and killed when
   * the JVM ends. Tests on it must use topic prefixes (and consumer groups) of their own.
   */
  static synchronized String sharedBroker() throws Exception {
    if (shared == null || !shared.alive()) {
      Path dir = Files.createTempDirectory("tokentrace-kraft-fault-");
      int port = freePort();
      shared = startBroker(dir, "broker", port);
      sharedBootstrap = "127.0.0.1:" + port;
      ChildJvm broker = shared;
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    try {
                      broker.close();
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                    deleteQuietly(dir);
                  },
                  "fault-broker-stop"));
    }
    return sharedBootstrap;
  }

  /** A broker child on {@code port} with its data under {@code dir}, once it says it is ready. */
  static ChildJvm startBroker(Path dir, String name, int port) throws Exception {
    ChildJvm process =
        ChildJvm.start(
            dir,
            name,
            "512m",
            "broker",
            "--port",
            String.valueOf(port),
            "--data-dir",
            dir.resolve("kafka-" + port).toString());
    process.await(
        line -> line.startsWith("kafka broker ready on"), ChildJvm.START_TIMEOUT, "ready");
    return process;
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** {@code ship --follow} to this fixture's broker; {@code args} end with the files. */
  ChildJvm ship(String name, String... args) throws IOException {
    return shipTo(bootstrap, name, args);
  }

  /** {@code ship --follow} to {@code servers}; {@code --status-interval 0s} unless given. */
  ChildJvm shipTo(String servers, String name, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "ship",
                "--follow",
                "--bootstrap-servers",
                servers,
                "--topic-prefix",
                prefix,
                "--shipper-id",
                prefix,
                "--engine",
                "vllm",
                "--year",
                "2026",
                "--commit-interval",
                "100ms",
                "--poll-interval",
                "20ms"));
    command.addAll(shipOptions);
    if (!List.of(args).contains("--status-interval")) {
      command.addAll(List.of("--status-interval", "0s"));
    }
    command.addAll(List.of(args));
    return ChildJvm.start(dir, name, "256m", command.toArray(String[]::new));
  }

  /**
   * {@code sink --follow} from this fixture's broker and topic prefix, with {@code args} naming the
   * target ({@code --db FILE} or {@code --lake DIR ...}) and options.
   */
  ChildJvm sink(String name, String heap, String... args) throws IOException {
    List<String> command =
        new ArrayList<>(
            List.of(
                "sink", "--follow", "--bootstrap-servers", bootstrap, "--topic-prefix", prefix));
    command.addAll(List.of(args));
    return ChildJvm.start(dir, name, heap, command.toArray(String[]::new));
  }

  /** Request ids in the lake's {@code request_arrived} with how often each occurs. */
  static Map<String, Long> lakeIdCounts(Path lake) throws Exception {
    if (!Files.exists(lake.resolve("_tokentrace_lake.json"))) {
      return new HashMap<>();
    }
    try (Database database = Lake.openReader(lake);
        Connection connection = database.newConnection()) {
      return idCounts(connection);
    }
  }

  /** Request ids in a DuckDB file's {@code request_arrived} with how often each occurs. */
  static Map<String, Long> dbIdCounts(Path db) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db)) {
      return idCounts(connection);
    }
  }

  private static Map<String, Long> idCounts(Connection connection) throws SQLException {
    Map<String, Long> counts = new HashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT request_id, count(*) FROM request_arrived GROUP BY request_id")) {
      while (rows.next()) {
        counts.put(rows.getString(1), rows.getLong(2));
      }
    }
    return counts;
  }

  /** Waits until every id is in the lake (committed), for at most {@code timeout}. */
  static void awaitInLake(Path lake, List<String> ids, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Set<String> missing = new HashSet<>(ids);
      missing.removeAll(lakeIdCounts(lake).keySet());
      if (missing.isEmpty()) {
        return;
      }
      assertThat(System.nanoTime())
          .as(missing.size() + " of " + ids.size() + " ids not in the lake yet")
          .isLessThan(deadline);
      Thread.sleep(300);
    }
  }

  /** The lake holds exactly the ids written (compared as sets), each once. */
  static void assertInLakeExactlyOnce(Path lake, List<String> ids) throws Exception {
    Map<String, Long> counts = lakeIdCounts(lake);
    assertThat(counts.keySet()).as("ids in the lake").isEqualTo(new HashSet<>(ids));
    assertThat(counts.entrySet().stream().filter(entry -> entry.getValue() != 1))
        .as("ids more than once")
        .isEmpty();
  }

  private static void deleteQuietly(Path dir) {
    try (var files = Files.walk(dir)) {
      files
          .sorted(java.util.Comparator.reverseOrder())
          .forEach(
              path -> {
                try {
                  Files.deleteIfExists(path);
                } catch (IOException e) {
                  // a leftover under /tmp; .ci/run sweeps stale broker directories
                }
              });
    } catch (IOException e) {
      // as above
    }
  }
}
