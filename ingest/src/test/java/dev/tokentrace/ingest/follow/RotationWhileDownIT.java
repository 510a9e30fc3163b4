package dev.tokentrace.ingest.follow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.Parsers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue [2.2] item 2: a log rotated once, twice or three times while the shipper is down, plain,
 * with logrotate's {@code compress} and with {@code compress} + {@code delaycompress}: every line
 * of every generation is shipped exactly once (ids compared as multisets), although the shipper
 * follows only {@code a.log}. A generation that is really gone is said loudly, with its lines.
 */
final class RotationWhileDownIT {
  private static final FollowSettings.Timing FAST =
      new FollowSettings.Timing(
          Duration.ofMillis(20),
          Duration.ofMillis(50),
          Duration.ofMillis(100),
          Duration.ofMillis(500),
          Duration.ofMillis(300),
          20_000);
  private static final AtomicInteger PREFIXES = new AtomicInteger();

  private static EmbeddedBroker broker;

  @TempDir Path dir;

  private final KafkaSettings kafka =
      new KafkaSettings(broker.bootstrapServers(), 3, "rot" + PREFIXES.incrementAndGet(), Map.of());

  private final List<String> written = new ArrayList<>();
  private int serial;

  @BeforeAll
  static void startBroker() {
    broker = EmbeddedBroker.start();
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  @ParameterizedTest(name = "{0} rotation(s) while down, {1}")
  @CsvSource({
    "1, plain",
    "2, plain",
    "3, plain",
    "1, compress",
    "2, compress",
    "3, compress",
    "1, delaycompress",
    "2, delaycompress",
    "3, delaycompress"
  })
  void everyGenerationRotatedWhileDownIsShippedOnce(int rotations, String mode) throws Exception {
    Path log = dir.resolve("a.log");
    write(log, 50);
    FollowSummary first = once(log);
    assertThat(first.problems()).isEmpty();
    write(log, 10); // after the checkpoint: only in the file that will be rotated
    for (int i = 0; i < rotations; i++) {
      rotate(log, mode);
      write(log, 20 + i);
    }

    FollowSummary second = once(log);

    assertThat(second.problems()).as("nothing is lost").isEmpty();
    assertExactlyOnce();
  }

  @Test
  void killedJustAfterOneRotationAndAnotherFollowsWithCompression() throws Exception {
    Path log = dir.resolve("a.log");
    write(log, 30);
    once(log);
    write(log, 5);
    rotate(log, "plain"); // the shipper sees this one: it reads a.log.1 to its end ...
    write(log, 7);
    FollowSummary seen = once(log);
    write(log, 9); // ... and is down for the next, which compresses what it followed
    rotate(log, "compress");
    write(log, 11);

    FollowSummary second = once(log);

    assertThat(seen.problems()).isEmpty();
    assertThat(second.problems()).isEmpty();
    assertExactlyOnce();
  }

  /**
   * A first run that ships no line (here an empty file; in the soak test a shipper killed before
   * its first commit) still leaves its starting checkpoint (docs/follow.md#first-checkpoint): the
   * file rotated away before the next run is found and shipped from its start. Without it the next
   * run was a first run again, followed only the new a.log and lost a.log.1's 50 lines in silence.
   */
  @Test
  void aFileRotatedBeforeTheFirstCommitOfLinesIsShippedFromTheStartingCheckpoint()
      throws Exception {
    Path log = dir.resolve("a.log");
    Files.createFile(log);
    FollowSummary first = once(log);
    write(log, 50);
    rotate(log, "plain");
    write(log, 20);

    FollowSummary second = once(log);

    assertThat(first.transactions()).as("the starting checkpoint").isEqualTo(1);
    assertThat(second.problems()).as("nothing is lost").isEmpty();
    assertExactlyOnce();
  }

  /**
   * A first run starts from the files as they were when the shipper started, not when Kafka first
   * answered (docs/follow.md#first-checkpoint): here the cluster comes up only after the log was
   * rotated, and a.log.1's lines, written before the shipper started, are shipped. Before, the
   * shipper followed the new a.log alone and a.log.1 was lost in silence (seen by the soak test
   * when a loaded machine took longer to connect than the log took to rotate).
   */
  @Test
  void aFileRotatedWhileTheFirstRunConnectsIsShipped() throws Exception {
    Path log = dir.resolve("a.log");
    write(log, 40);
    int port;
    try (ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    KafkaSettings later =
        new KafkaSettings("127.0.0.1:" + port, 3, "late" + PREFIXES.incrementAndGet(), Map.of());
    Follower follower = new Follower(settings(log, later), later, Parsers::create);
    CompletableFuture<FollowSummary> run = CompletableFuture.supplyAsync(follower::run);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!follower.progress().waitingForKafka() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(follower.progress().waitingForKafka()).as("the shipper waits for Kafka").isTrue();
    write(log, 10);
    rotate(log, "plain");
    write(log, 15);
    FollowSummary summary;
    try (EmbeddedBroker late = EmbeddedBroker.start(port, null)) {
      summary = run.get(120, TimeUnit.SECONDS);
      assertThat(summary.problems()).as("nothing is lost").isEmpty();
      List<String> shipped = CommittedRecords.read(later).requestIds();
      assertThat(shipped).containsExactlyInAnyOrderElementsOf(written);
    }
  }

  @Test
  void aGenerationThatIsGoneIsSaidLoudlyWithItsLines() throws Exception {
    Path log = dir.resolve("a.log");
    write(log, 40);
    once(log);
    write(log, 10);
    rotate(log, "plain");
    write(log, 5);
    Files.delete(dir.resolve("a.log.1")); // rotated past 'rotate 0' while down

    FollowSummary second = once(log);

    assertThat(second.problems())
        .singleElement()
        .asString()
        .contains("LINES LOST")
        .contains("checkpointed at line 41")
        .contains("from line 41 to its end");
  }

  private void assertExactlyOnce() {
    List<String> shipped = CommittedRecords.read(kafka).requestIds();
    Map<String, Integer> counts = new HashMap<>();
    shipped.forEach(id -> counts.merge(id, 1, Integer::sum));
    assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(written);
    assertThat(counts).allSatisfy((id, n) -> assertThat(n).as(id).isOne());
  }

  /** logrotate with {@code rotate 5} and the given compression, then a new empty file. */
  private void rotate(Path log, String mode) throws IOException {
    String base = log.getFileName().toString();
    for (int i = 5; i >= 1; i--) {
      for (String ext : new String[] {"", ".gz"}) {
        Path from = log.resolveSibling(base + "." + i + ext);
        if (Files.exists(from)) {
          Files.move(from, log.resolveSibling(base + "." + (i + 1) + ext));
        }
      }
    }
    Files.move(log, log.resolveSibling(base + ".1"));
    if (mode.equals("compress")) {
      gzip(log.resolveSibling(base + ".1"));
    } else if (mode.equals("delaycompress") && Files.exists(log.resolveSibling(base + ".2"))) {
      gzip(log.resolveSibling(base + ".2"));
    }
    Files.createFile(log);
  }

  private static void gzip(Path file) throws IOException {
    Path gz = file.resolveSibling(file.getFileName() + ".gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
      Files.copy(file, out);
    }
    Files.delete(file);
  }

  private void write(Path log, int lines) throws IOException {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < lines; i++) {
      serial++;
      text.append(VllmLines.request("r", serial));
      written.add(String.format("r-%07d", serial));
    }
    Files.write(
        log, text.toString().getBytes(UTF_8), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private FollowSummary once(Path log) {
    return new Follower(settings(log, kafka), kafka, Parsers::create).run();
  }

  private static FollowSettings settings(Path log, KafkaSettings kafka) {
    return new FollowSettings(
        "it-" + kafka.topicPrefix(),
        List.of(SourceSpec.parse(log.toString())),
        "vllm-0",
        InstanceNaming.FIXED,
        Engine.VLLM,
        ZoneOffset.UTC,
        2026,
        LineSplitter.DEFAULT_MAX_LINE_BYTES,
        StartAt.BEGINNING,
        true,
        FAST);
  }
}
