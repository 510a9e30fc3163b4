package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak test of live tailing (issue [2.2]): a log written steadily, rotated by rename on a
 * schedule, while the shipper and the sink are killed with {@code kill -9} and the broker is
 * stopped and started again, each on its own schedule; at the end the ids written and the ids
 * stored are compared as sets, and every id must be stored once. CI runs it for 45 s (compressed
 * schedule: rotation every 7 s, shipper killed every 13, sink every 17, broker restarted every 21:
 * 6 rotations, 3 shipper and 2 sink kills, 2 broker restarts where the machine keeps up); {@code
 * bench/soak.sh} runs the 30-minute version ({@code -Dsoak.minutes=30}: rotation every minute,
 * shipper killed every 3, sink every 7, broker restarted every 10) and prints the figures for
 * BENCHMARKS.md.
 */
// run alone, after the others (pom.xml, failsafe execution serial-its): its fault schedule and
// every stop judged by exit code, on a quiet machine
@Tag("serial")
final class SoakIT {
  private static final int LINES_PER_SECOND = 200;

  @TempDir Path dir;

  @Test
  void linesWrittenEqualRowsStoredThroughRotationsKillsAndBrokerRestarts() throws Exception {
    double minutes = Double.parseDouble(System.getProperty("soak.minutes", "0.75"));
    boolean full = minutes >= 30;
    // CI compresses the schedule so that every fault happens more than once in 45 s
    Duration rotateEvery = full ? Duration.ofMinutes(1) : Duration.ofSeconds(7);
    Duration killShipperEvery = full ? Duration.ofMinutes(3) : Duration.ofSeconds(13);
    Duration killSinkEvery = full ? Duration.ofMinutes(7) : Duration.ofSeconds(17);
    Duration restartBrokerEvery = full ? Duration.ofMinutes(10) : Duration.ofSeconds(21);
    long end = System.nanoTime() + (long) (minutes * 60e9);

    int port = freePort();
    String servers = "127.0.0.1:" + port;
    Path log = dir.resolve("server.log");
    Path db = dir.resolve("soak.duckdb");
    Path kafkaConfig =
        Files.writeString(dir.resolve("k.properties"), "producer.max.block.ms=2000\n");
    int rotations = 0;
    int shipperKills = 0;
    int sinkKills = 0;
    int brokerRestarts = 0;
    List<String> ids;
    ChildJvm broker = startBroker(port, 0);
    ChildJvm shipper = null;
    ChildJvm sink = null;
    try (LogWriter writer = new LogWriter(log, "soak", LINES_PER_SECOND).start()) {
      shipper = ship(servers, kafkaConfig, log, 0);
      sink = sink(servers, db, 0);
      long started = System.nanoTime();
      long nextRotation = started + rotateEvery.toNanos();
      long nextShipperKill = started + killShipperEvery.toNanos();
      long nextSinkKill = started + killSinkEvery.toNanos();
      long nextBrokerRestart = started + restartBrokerEvery.toNanos();
      while (System.nanoTime() < end) {
        long now = System.nanoTime();
        if (now >= nextRotation) {
          rotations++;
          writer.rotateByRename(
              dir.resolve(String.format(Locale.ROOT, "server.log-%04d", rotations)), 20);
          nextRotation += rotateEvery.toNanos();
        }
        if (now >= nextShipperKill) {
          shipperKills++;
          shipper.kill();
          shipper = ship(servers, kafkaConfig, log, shipperKills);
          nextShipperKill += killShipperEvery.toNanos();
        }
        if (now >= nextSinkKill) {
          sinkKills++;
          sink.kill();
          sink = sink(servers, db, sinkKills);
          nextSinkKill += killSinkEvery.toNanos();
        }
        if (now >= nextBrokerRestart) {
          brokerRestarts++;
          broker.stop();
          Thread.sleep(2_000); // down for a while: the shipper waits, the sink waits
          broker = startBroker(port, brokerRestarts);
          nextBrokerRestart += restartBrokerEvery.toNanos();
        }
        Thread.sleep(100);
      }
      ids = writer.finish();
      Thread.sleep(2_000); // the rotated file's grace period: read to its end
      assertThat(shipper.stop()).as(shipper.output()).isZero();
      // the natural catch-up: what the last shipper had not read yet is shipped by a --once run
      try (ChildJvm last = ship(servers, kafkaConfig, log, -1, "--once")) {
        assertThat(last.waitFor()).as(last.output()).isZero();
      }
      sink.stopSink();
      catchUp(servers, db);
      Map<String, Long> counts = idCounts(db);
      Set<String> written = new HashSet<>(ids);
      Set<String> missing = new HashSet<>(written);
      missing.removeAll(counts.keySet());
      Set<String> extra = new HashSet<>(counts.keySet());
      extra.removeAll(written);
      long twice = counts.values().stream().filter(n -> n != 1).count();
      String figures =
          String.format(
              Locale.ROOT,
              "soak %.0f min: lines written %d, ids stored %d, missing %d, unexpected %d, stored"
                  + " more than once %d; rotations %d, shipper kill -9 %d, sink kill -9 %d,"
                  + " broker restarts %d",
              minutes,
              ids.size(),
              counts.size(),
              missing.size(),
              extra.size(),
              twice,
              rotations,
              shipperKills,
              sinkKills,
              brokerRestarts);
      System.out.println(figures);
      Files.createDirectories(Path.of("target"));
      Files.writeString(Path.of("target", "soak-result.txt"), figures + "\n"); // cli/target
      assertThat(missing).as(figures).isEmpty();
      assertThat(extra).as(figures).isEmpty();
      assertThat(twice).as(figures).isZero();
      assertThat(rotations * shipperKills * sinkKills * brokerRestarts)
          .as("every fault happened")
          .isPositive();

    } finally {
      for (ChildJvm process : new ChildJvm[] {shipper, sink, broker}) {
        if (process != null) {
          process.close();
        }
      }
    }
  }

  private ChildJvm ship(String servers, Path kafkaConfig, Path log, int n, String... more)
      throws IOException {
    List<String> args = new java.util.ArrayList<>(List.of("ship", "--follow"));
    args.addAll(List.of(more));
    args.addAll(
        List.of(
            "--bootstrap-servers",
            servers,
            "--kafka-config",
            kafkaConfig.toString(),
            "--shipper-id",
            "soak",
            "--engine",
            "vllm",
            "--year",
            "2026",
            "--commit-interval",
            "200ms",
            "--status-interval",
            "0s",
            log.toString()));
    return ChildJvm.start(dir, "ship-" + n, "256m", args.toArray(String[]::new));
  }

  private ChildJvm sink(String servers, Path db, int n) throws IOException {
    return ChildJvm.start(
        dir,
        "sink-" + n,
        "384m",
        "sink",
        "--follow",
        "--bootstrap-servers",
        servers,
        "--db",
        db.toString(),
        "--status-interval",
        "0s");
  }

  private ChildJvm startBroker(int port, int n) throws Exception {
    ChildJvm process =
        ChildJvm.start(
            dir,
            "broker-" + n,
            "512m",
            "broker",
            "--port",
            String.valueOf(port),
            "--data-dir",
            dir.resolve("kafka").toString());
    process.await(
        line -> line.startsWith("kafka broker ready on"), ChildJvm.START_TIMEOUT, "ready");
    return process;
  }

  /** {@code tokentrace sink} in this JVM until caught up with everything committed. */
  private static void catchUp(String servers, Path db) {
    StringWriter err = new StringWriter();
    picocli.CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setErr(new PrintWriter(err));
    int code = commandLine.execute("sink", "--bootstrap-servers", servers, "--db", db.toString());
    assertThat(code).as(err.toString()).isZero();
  }

  private static Map<String, Long> idCounts(Path db) throws Exception {
    return FaultFixture.dbIdCounts(db);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
