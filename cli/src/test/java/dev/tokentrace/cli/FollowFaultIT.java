package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The six fault tests of live tailing, against real brokers, with the shipper, the sink and (where
 * it is stopped) the broker each in a process of its own, killed with {@code kill -9} or stopped
 * with SIGTERM. Every log line is a vLLM request with its own id, so "exactly once" is checked on
 * the set of ids in DuckDB and on every id occurring once; where no rotation reuses line numbers,
 * also on the set of (source_path, source_line).
 */
// run alone, after the others (pom.xml, failsafe execution serial-its): SIGTERM must end shippers
// within the 4.5 s grace (exit codes judged)
@Tag("serial")
final class FollowFaultIT {
  private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(120);
  private static final AtomicInteger PREFIXES = new AtomicInteger();
  private static final Pattern SINK_STATUS = Pattern.compile("lag (\\d+) records, (\\d+) batches");
  private static final Pattern SHIP_STATUS = Pattern.compile("(\\d+) records committed");

  @TempDir Path dir;

  private final String prefix = "fault" + PREFIXES.incrementAndGet();
  private String bootstrap;
  private FaultFixture processes;

  @BeforeEach
  void useTheSharedBroker() throws Exception {
    bootstrap = FaultFixture.sharedBroker();
    processes = new FaultFixture(dir, bootstrap, prefix);
  }

  /** Fault 1. */
  @Test
  void killingTheShipperMidStreamThreeTimesLosesAndRepeatsNoLine() throws Exception {
    Path log = dir.resolve("server.log");
    List<String> ids;
    try (LogWriter writer = new LogWriter(log, "k", 400).start()) {
      for (int kill = 1; kill <= 3; kill++) {
        try (ChildJvm shipper =
            ship("ship-" + kill, "--status-interval", "100ms", log.toString())) {
          shipper.await(FollowFaultIT::committed, ChildJvm.START_TIMEOUT, "a commit");
          awaitWritten(writer, writer.written() + 200); // it ships on: killed mid-stream
          shipper.kill();
        }
      }
      ids = writer.finish();
    }
    try (ChildJvm last = ship("ship-once", "--once", log.toString())) {
      assertThat(last.waitFor()).as(last.output()).isZero();
      assertThat(last.stderr()).containsPattern("resuming at line [1-9]\\d+ ");
    }

    sink();
    assertExactlyOnce(ids);
    assertPositionsExactlyOnce(log, ids.size());
  }

  /** Fault 2. */
  @Test
  void killingTheSinkMidBatchLosesAndRepeatsNoRow() throws Exception {
    Path log = dir.resolve("server.log");
    List<String> ids;
    try (LogWriter writer = new LogWriter(log, "s", 1)) {
      writer.write(30_000);
      ids = writer.ids();
    }
    try (ChildJvm shipper = ship("ship", "--once", log.toString())) {
      assertThat(shipper.waitFor()).as(shipper.output()).isZero();
    }
    Path smallPolls = Files.writeString(dir.resolve("k.properties"), "max.poll.records=500\n");
    try (ChildJvm sink =
        processes.sink(
            "sink",
            "384m",
            "--db",
            db().toString(),
            "--kafka-config",
            smallPolls.toString(),
            "--status-interval",
            "100ms")) {
      sink.await(FollowFaultIT::midStream, ChildJvm.START_TIMEOUT, "batches with lag left");
      sink.kill();
    }

    sink();
    assertExactlyOnce(ids);
    assertPositionsExactlyOnce(log, ids.size());
  }

  /** Fault 3. */
  @Test
  void stoppingAndRestartingTheBrokerMidStreamLosesNothing() throws Exception {
    int port = FaultFixture.freePort();
    String servers = "127.0.0.1:" + port;
    Path kafkaConfig =
        Files.writeString(dir.resolve("k.properties"), "producer.max.block.ms=2000\n");
    Path log = dir.resolve("server.log");
    List<String> ids;
    ChildJvm own = FaultFixture.startBroker(dir, "broker-1", port);
    try (LogWriter writer = new LogWriter(log, "b", 300).start();
        ChildJvm shipper =
            shipTo(servers, "ship", "--kafka-config", kafkaConfig.toString(), log.toString())) {
      shipper.await(line -> line.contains("connected in"), ChildJvm.START_TIMEOUT, "connect");
      awaitWritten(writer, writer.written() + 300);
      own.stop();
      shipper.await(line -> line.contains("waiting for"), DELIVERY_TIMEOUT, "waiting for kafka");
      own = FaultFixture.startBroker(dir, "broker-2", port);
      awaitWritten(writer, writer.written() + 300);
      ids = writer.finish();
      awaitDelivered(servers, ids);
      assertThat(shipper.stop()).as(shipper.output()).isZero();
      assertThat(shipper.stderr()).contains("reachable again");
      sink(servers);
      assertExactlyOnce(ids);
      assertPositionsExactlyOnce(log, ids.size());
    } finally {
      own.close();
    }
  }

  /** Fault 4. */
  @Test
  void rotationByRenameAndByCopytruncateUnderLoadLosesAndRepeatsNoLine() throws Exception {
    Path log = dir.resolve("server.log");
    List<String> ids;
    try (LogWriter writer = new LogWriter(log, "r", 500).start();
        ChildJvm shipper = ship("ship", "--rotated-grace", "1s", log.toString())) {
      shipper.await(line -> line.contains("connected in"), ChildJvm.START_TIMEOUT, "connect");
      awaitWritten(writer, writer.written() + 300);
      writer.rotateByRename(dir.resolve("server.log.1"), 25);
      awaitWritten(writer, writer.written() + 300);
      writer.pause();
      try {
        awaitDelivered(bootstrap, writer.ids());
        writer.copyTruncate(dir.resolve("server.log.copy"));
      } finally {
        writer.resume();
      }
      awaitWritten(writer, writer.written() + 300);
      writer.rotateByRename(dir.resolve("server.log.2"), 25);
      awaitWritten(writer, writer.written() + 300);
      ids = writer.finish();
      awaitDelivered(bootstrap, ids);
      assertThat(shipper.stop()).as(shipper.output()).isZero();
      assertThat(shipper.stderr())
          .contains("rotated (renamed or deleted)")
          .contains("truncated below offset");
    }

    sink();
    assertExactlyOnce(ids);
  }

  /** Fault 5. */
  @Test
  void aFloodOfMalformedLinesIsCountedWhileGoodLinesFlowAndTheToleranceDecidesTheExitCode()
      throws Exception {
    Path log = dir.resolve("server.log");
    List<String> ids = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int serial = 1; serial <= 2000; serial++) {
      text.append(LogWriter.line("m", serial));
      ids.add(LogWriter.id("m", serial));
      for (int junk = 0; junk < 3; junk++) {
        text.append("garbage ").append(serial).append('.').append(junk).append(" \u00ff\n");
      }
    }
    Files.writeString(log, text);

    try (ChildJvm shipper =
        ship("ship", "--max-reject-ratio", "0.5", "--status-interval", "200ms", log.toString())) {
      shipper.await(
          line -> line.contains("> --max-reject-ratio 50.0%"), DELIVERY_TIMEOUT, "reject warning");
      awaitDelivered(bootstrap, ids);
      assertThat(shipper.stop()).as(shipper.output()).isEqualTo(ExitCodes.REJECTS);
      assertThat(shipper.stderr())
          .contains("lines=8000 parsed=2000 ignored=0 rejected=6000 (75.00%)")
          .contains("rejected 75.00% of lines, more than --max-reject-ratio 50.00%");
    }
    Path tolerable = dir.resolve("tolerable.log");
    Files.writeString(tolerable, LogWriter.line("t", 1) + "garbage\n" + LogWriter.line("t", 2));
    try (ChildJvm once =
        ship("ship-once", "--once", "--max-reject-ratio", "0.4", tolerable.toString())) {
      assertThat(once.waitFor()).as(once.output()).isZero();
    }

    sink();
    ids.addAll(List.of("t-0000001", "t-0000002"));
    assertExactlyOnce(ids);
    assertThat(count("SELECT count(*) FROM rejects WHERE reason = 'unrecognized line'"))
        .isEqualTo(6001);
  }

  /** Fault 6, part 1: a file that disappears, a directory; the other files keep flowing. */
  @Test
  void aVanishingFileAndADirectoryAreReportedWhileTheOtherFilesFlow() throws Exception {
    Path log = dir.resolve("server.log");
    Path vanishing = dir.resolve("vanishing.log");
    Path directory = Files.createDirectory(dir.resolve("logs.d"));
    List<String> vanishingIds;
    try (LogWriter early = new LogWriter(vanishing, "v", 1)) {
      early.write(200);
      vanishingIds = early.ids();
    }
    List<String> ids;
    try (LogWriter writer = new LogWriter(log, "g", 300).start();
        ChildJvm shipper =
            ship("ship", log.toString(), vanishing.toString(), directory.toString())) {
      shipper.await(
          line -> line.contains(directory + ": cannot follow: is a directory, not a file"),
          ChildJvm.START_TIMEOUT,
          "the directory reported");
      awaitDelivered(bootstrap, vanishingIds);
      Files.delete(vanishing);
      awaitWritten(writer, writer.written() + 300);
      ids = writer.finish();
      awaitDelivered(bootstrap, ids);
      assertThat(shipper.stop()).as(shipper.output()).isEqualTo(ExitCodes.INFRASTRUCTURE);
      assertThat(shipper.stderr())
          .contains("cannot follow " + directory + ": is a directory, not a file")
          .contains(vanishing + ": rotated (renamed or deleted)");
    }

    sink();
    List<String> all = new ArrayList<>(ids);
    all.addAll(vanishingIds);
    assertExactlyOnce(all);
  }

  /** Fault 6, part 2: a file without read permission (not testable as root). */
  @Test
  void aFileWithoutReadPermissionIsReportedAndFollowedOnceReadable() throws Exception {
    Path locked = dir.resolve("locked.log");
    try (LogWriter early = new LogWriter(locked, "l", 1)) {
      early.write(50);
    }
    Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
    // root reads any file whatever its mode, so there is no permission error to see
    assumeFalse(Files.isReadable(locked), "running as root: file permissions are not enforced");
    Path log = dir.resolve("server.log");
    List<String> ids;
    try (LogWriter writer = new LogWriter(log, "g", 300).start();
        ChildJvm shipper = ship("ship", log.toString(), locked.toString())) {
      shipper.await(
          line -> line.contains(locked + ": cannot follow: permission denied"),
          ChildJvm.START_TIMEOUT,
          "permission denied");
      awaitWritten(writer, writer.written() + 300);
      Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rw-------"));
      shipper.await(line -> line.contains(locked + ": readable now"), DELIVERY_TIMEOUT, "retry");
      ids = new ArrayList<>(writer.finish());
      for (int serial = 1; serial <= 50; serial++) {
        ids.add(LogWriter.id("l", serial));
      }
      awaitDelivered(bootstrap, ids);
      assertThat(shipper.stop()).as(shipper.output()).isZero();
    }
    sink();
    assertExactlyOnce(ids);
  }

  // --- processes

  private ChildJvm ship(String name, String... args) throws IOException {
    return processes.ship(name, args);
  }

  private ChildJvm shipTo(String servers, String name, String... args) throws IOException {
    return processes.shipTo(servers, name, args);
  }

  /** A shipper's status line after its first commit. */
  private static boolean committed(String line) {
    Matcher status = SHIP_STATUS.matcher(line);
    return status.find() && Long.parseLong(status.group(1)) > 0;
  }

  private static boolean midStream(String line) {
    Matcher status = SINK_STATUS.matcher(line);
    return status.find()
        && Long.parseLong(status.group(1)) > 0
        && Long.parseLong(status.group(2)) >= 2;
  }

  private static void awaitWritten(LogWriter writer, int lines) throws InterruptedException {
    long deadline = System.nanoTime() + DELIVERY_TIMEOUT.toNanos();
    while (writer.written() < lines) {
      assertThat(System.nanoTime()).as("writer at " + writer.written()).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  // --- DuckDB

  private Path db() {
    return dir.resolve("fault.duckdb");
  }

  private void sink() {
    sink(bootstrap);
  }

  /** {@code tokentrace sink} in this JVM, until caught up with what was committed. */
  private void sink(String servers) {
    StringWriter err = new StringWriter();
    picocli.CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setErr(new PrintWriter(err));
    int code =
        commandLine.execute(
            "sink",
            "--bootstrap-servers",
            servers,
            "--topic-prefix",
            prefix,
            "--db",
            db().toString());
    assertThat(code).as(err.toString()).isZero();
  }

  /** Sinks until every id is in DuckDB (the shipper goes on meanwhile). */
  private void awaitDelivered(String servers, List<String> ids) throws Exception {
    long deadline = System.nanoTime() + DELIVERY_TIMEOUT.toNanos();
    Set<String> wanted = new HashSet<>(ids);
    while (true) {
      sink(servers);
      Set<String> missing = new HashSet<>(wanted);
      missing.removeAll(idCounts().keySet());
      if (missing.isEmpty()) {
        return;
      }
      assertThat(System.nanoTime())
          .as(missing.size() + " of " + ids.size() + " ids not delivered yet")
          .isLessThan(deadline);
      Thread.sleep(200);
    }
  }

  private void assertExactlyOnce(List<String> ids) throws SQLException {
    Map<String, Long> counts = idCounts();
    assertThat(counts.keySet()).as("ids in DuckDB").isEqualTo(new HashSet<>(ids));
    assertThat(counts.entrySet().stream().filter(entry -> entry.getValue() != 1))
        .as("ids more than once")
        .isEmpty();
  }

  /** Every (source_path, source_line) of the file, 1..lines, each once. */
  private void assertPositionsExactlyOnce(Path log, int lines) throws SQLException {
    assertThat(count("SELECT count(*) FROM request_arrived")).isEqualTo(lines);
    assertThat(
            count(
                "SELECT count(DISTINCT source_line) FROM request_arrived WHERE source_path = '"
                    + log
                    + "' AND source_line BETWEEN 1 AND "
                    + lines))
        .isEqualTo(lines);
  }

  private Map<String, Long> idCounts() throws SQLException {
    return Files.exists(db()) ? FaultFixture.dbIdCounts(db()) : new HashMap<>();
  }

  private long count(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db());
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
