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
 * stored are compared as sets, and every id must be stored once. CI runs it for 30 s (compressed
 * schedule: rotation every 5 s, shipper killed every 8, sink every 11, broker restarted every 14: 6
 * rotations, 3 shipper and 2 sink kills, 2 broker restarts where the machine keeps up); {@code
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

  /** What the test did when (seconds since the writer started), for a failure's evidence. */
  private final StringBuilder timeline = new StringBuilder();

  private long timelineStart = System.nanoTime();

  private void note(String what, Object... args) {
    timeline.append(
        String.format(
            Locale.ROOT,
            "+%6.1f s %s%n",
            (System.nanoTime() - timelineStart) / 1e9,
            String.format(Locale.ROOT, what, args)));
  }

  @Test
  void linesWrittenEqualRowsStoredThroughRotationsKillsAndBrokerRestarts() throws Exception {
    double minutes = Double.parseDouble(System.getProperty("soak.minutes", "0.5"));
    boolean full = minutes >= 30;
    // CI compresses the schedule so that every fault happens at least twice in 30 s
    Duration rotateEvery = full ? Duration.ofMinutes(1) : Duration.ofSeconds(5);
    Duration killShipperEvery = full ? Duration.ofMinutes(3) : Duration.ofSeconds(8);
    Duration killSinkEvery = full ? Duration.ofMinutes(7) : Duration.ofSeconds(11);
    Duration restartBrokerEvery = full ? Duration.ofMinutes(10) : Duration.ofSeconds(14);

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
    try (LogWriter writer = new LogWriter(log, "soak", LINES_PER_SECOND)) {
      shipper = ship(servers, kafkaConfig, log, 0);
      sink = sink(servers, db, 0);
      // Lines rotated away before the shipper id's first checkpoint are no shipper's: a first run
      // follows the named file (docs/follow.md#first-checkpoint). At load 30 the first shipper can
      // take longer than the first rotation (7 s) to connect, so the log starts once it has its
      // starting checkpoint, not at a fixed time.
      shipper.await(
          line -> line.contains("starting checkpoint committed"),
          ChildJvm.START_TIMEOUT,
          "its starting checkpoint");
      writer.start();
      long started = System.nanoTime();
      timelineStart = started;
      // the schedule counts from here: at load 30 the broker alone can take most of 45 s to start
      long end = started + (long) (minutes * 60e9);
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
          note("rotation %d asked (written so far %d)", rotations, writer.written());
          nextRotation += rotateEvery.toNanos();
        }
        if (now >= nextShipperKill) {
          shipperKills++;
          shipper.kill();
          note("ship-%d killed (written so far %d)", shipperKills - 1, writer.written());
          shipper = ship(servers, kafkaConfig, log, shipperKills);
          nextShipperKill += killShipperEvery.toNanos();
        }
        if (now >= nextSinkKill) {
          sinkKills++;
          sink.kill();
          note("sink-%d killed", sinkKills - 1);
          sink = sink(servers, db, sinkKills);
          nextSinkKill += killSinkEvery.toNanos();
        }
        if (now >= nextBrokerRestart) {
          brokerRestarts++;
          broker.stop();
          note("broker-%d stopped", brokerRestarts - 1);
          Thread.sleep(2_000); // down for a while: the shipper waits, the sink waits
          broker = startBroker(port, brokerRestarts);
          note("broker-%d ready", brokerRestarts);
          nextBrokerRestart += restartBrokerEvery.toNanos();
        }
        Thread.sleep(100);
      }
      ids = writer.finish();
      note("writer finished: %d lines", ids.size());
      Thread.sleep(2_000); // the rotated file's grace period: read to its end
      // a shipper JVM started just before (a kill's replacement) and stopped before its SIGTERM
      // hook exists exits 143 having done nothing: wait until it has connected
      shipper.await(line -> line.contains("connected in"), ChildJvm.START_TIMEOUT, "connect");
      int stopped = shipper.stop();
      if (stopped != 0) {
        // beyond the 4.5 s grace at this load: what it had not committed, --once ships below
        assertThat(stopped).as(shipper.output()).isEqualTo(143);
        assertThat(shipper.stderr()).as(shipper.output()).contains("did not stop within");
      }
      note("last follower stopped");
      // the natural catch-up: what the last shipper had not read yet is shipped by a --once run
      try (ChildJvm last = ship(servers, kafkaConfig, log, -1, "--once")) {
        assertThat(last.waitFor()).as(last.output()).isZero();
      }
      note("ship --once ended");
      sink.stopSink();
      note("sink stopped");
      // a batch sink reads up to the end offsets it sees when it starts (read_committed): wait
      // until every transaction's markers are visible first, not for a fixed time
      note("transactions decided: %s", awaitTransactionsDecided(servers));
      catchUp(servers, db);
      note("catch-up sink ended");
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
              "soak %.0f s: lines written %d, ids stored %d, missing %d, unexpected %d, stored"
                  + " more than once %d; rotations %d, shipper kill -9 %d, sink kill -9 %d,"
                  + " broker restarts %d",
              minutes * 60,
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
      if (!missing.isEmpty() || !extra.isEmpty() || twice != 0) {
        System.out.println(keepEvidence(servers, figures, missing, counts));
      }
      assertThat(missing).as(figures).isEmpty();
      assertThat(extra).as(figures).isEmpty();
      assertThat(twice).as(figures).isZero();
      assertThat(rotations * shipperKills * sinkKills * brokerRestarts)
          .as("every fault happened")
          .isPositive();

    } catch (Exception | AssertionError e) {
      if (!Files.exists(Path.of("target", "soak-failure", "summary.txt"))) {
        System.out.println(keepEvidence(servers, "soak failed: " + e, Set.of(), Map.of()));
      }
      throw e;
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

  /**
   * A failed soak keeps its evidence in {@code cli/target/soak-failure/}: every child JVM's output
   * (ship-N, sink-N, broker-N) and, per log file (the live one and each rotated generation), how
   * many of its ids were stored and which are missing. Returns that per-file summary.
   */
  private String keepEvidence(
      String servers, String figures, Set<String> missing, Map<String, Long> counts)
      throws IOException {
    Path out = Path.of("target", "soak-failure");
    Files.createDirectories(out);
    StringBuilder summary = new StringBuilder(figures).append('\n').append(timeline);
    List<Path> files;
    try (var listing = Files.list(dir)) {
      files = listing.sorted().toList();
    }
    java.util.regex.Pattern idPattern = java.util.regex.Pattern.compile("soak-\\d{7}");
    Set<String> committedIds = new HashSet<>();
    try {
      committedIds = committedIds(servers, idPattern);
    } catch (RuntimeException e) {
      summary.append("(cannot read Kafka: ").append(e).append(")\n");
    }
    for (Path file : files) {
      String name = file.getFileName().toString();
      if (name.endsWith(".out") || name.endsWith(".err")) {
        Files.copy(file, out.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      } else if (name.startsWith("server.log")) {
        List<String> inFile = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(file)) {
          java.util.regex.Matcher m = idPattern.matcher(line);
          if (m.find()) {
            inFile.add(m.group());
          }
        }
        List<String> lost = inFile.stream().filter(missing::contains).toList();
        long inKafka = inFile.stream().filter(committedIds::contains).count();
        long stored = inFile.stream().filter(counts::containsKey).count();
        summary.append(
            String.format(
                Locale.ROOT,
                "%s: %d bytes, %d lines (%s .. %s), committed to Kafka %d, stored %d, missing"
                    + " %d%s%n",
                name,
                Files.size(file),
                inFile.size(),
                inFile.isEmpty() ? "-" : inFile.get(0),
                inFile.isEmpty() ? "-" : inFile.get(inFile.size() - 1),
                inKafka,
                stored,
                lost.size(),
                lost.isEmpty()
                    ? ""
                    : " (" + lost.get(0) + " .. " + lost.get(lost.size() - 1) + ")"));
      }
    }
    Files.writeString(out.resolve("summary.txt"), summary);
    return summary.toString();
  }

  /**
   * Per partition of the events topics: the end a {@code read_committed} consumer sees (the last
   * stable offset) and the log end. They differ while a transaction's commit markers are not
   * written yet (the shipper's commit returns before that), or while a transaction is open.
   */
  private static String transactionEnds(String servers) {
    StringBuilder behind = new StringBuilder();
    Map<org.apache.kafka.common.TopicPartition, long[]> ends = ends(servers);
    ends.forEach(
        (partition, end) -> {
          if (end[0] != end[1]) {
            behind.append(
                String.format(Locale.ROOT, " %s: stable %d < end %d;", partition, end[0], end[1]));
          }
        });
    return ends.size() + " partitions" + (behind.length() == 0 ? ", all stable" : behind);
  }

  /**
   * Waits until every transaction written is decided and its markers visible: on every partition
   * the last stable offset reached the log end. Every shipper has ended by then, so no transaction
   * is open any more, and a batch sink's end offsets (read_committed) then hold everything shipped.
   */
  private static String awaitTransactionsDecided(String servers) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (true) {
      String ends = transactionEnds(servers);
      if (ends.endsWith("all stable") || System.nanoTime() > deadline) {
        return ends;
      }
      Thread.sleep(200);
    }
  }

  /** Every soak id in a record that a read_committed consumer sees, in any topic. */
  private static Set<String> committedIds(String servers, java.util.regex.Pattern idPattern) {
    Set<String> ids = new HashSet<>();
    try (var consumer = consumer(servers, "read_committed")) {
      List<org.apache.kafka.common.TopicPartition> partitions =
          partitions(consumer, topic -> !topic.contains("checkpoint"));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<org.apache.kafka.common.TopicPartition, Long> end =
          consumer.endOffsets(partitions, Duration.ofSeconds(30));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (System.nanoTime() < deadline
          && partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        for (var record : consumer.poll(Duration.ofMillis(500))) {
          if (record.value() != null) {
            java.util.regex.Matcher m =
                idPattern.matcher(
                    new String(record.value(), java.nio.charset.StandardCharsets.ISO_8859_1));
            while (m.find()) {
              ids.add(m.group());
            }
          }
        }
      }
    }
    return ids;
  }

  private static Map<org.apache.kafka.common.TopicPartition, long[]> ends(String servers) {
    Map<org.apache.kafka.common.TopicPartition, long[]> ends =
        new java.util.TreeMap<>(
            java.util.Comparator.comparing(org.apache.kafka.common.TopicPartition::toString));
    for (String isolation : List.of("read_committed", "read_uncommitted")) {
      try (var consumer = consumer(servers, isolation)) {
        consumer
            .endOffsets(partitions(consumer, topic -> true), Duration.ofSeconds(30))
            .forEach(
                (partition, end) ->
                    ends.computeIfAbsent(partition, p -> new long[2])[
                            isolation.equals("read_committed") ? 0 : 1] =
                        end);
      }
    }
    return ends;
  }

  private static org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer(
      String servers, String isolation) {
    java.util.Properties properties = new java.util.Properties();
    properties.put("bootstrap.servers", servers);
    properties.put("isolation.level", isolation);
    properties.put(
        "key.deserializer",
        org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
    properties.put(
        "value.deserializer",
        org.apache.kafka.common.serialization.ByteArrayDeserializer.class.getName());
    return new org.apache.kafka.clients.consumer.KafkaConsumer<>(properties);
  }

  /** Every partition of the topics {@code wanted} takes, Kafka's internal topics left out. */
  private static List<org.apache.kafka.common.TopicPartition> partitions(
      org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer,
      java.util.function.Predicate<String> wanted) {
    List<org.apache.kafka.common.TopicPartition> partitions = new java.util.ArrayList<>();
    consumer
        .listTopics(Duration.ofSeconds(30))
        .forEach(
            (topic, infos) -> {
              if (!topic.startsWith("__") && wanted.test(topic)) {
                infos.forEach(
                    info ->
                        partitions.add(
                            new org.apache.kafka.common.TopicPartition(topic, info.partition())));
              }
            });
    return partitions;
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
