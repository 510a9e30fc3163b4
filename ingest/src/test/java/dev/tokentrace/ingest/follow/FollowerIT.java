package dev.tokentrace.ingest.follow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.zip.GZIPOutputStream;
import org.apache.kafka.common.KafkaException;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The follower against a real in-JVM broker and the real vLLM parser: growing files, partial lines,
 * restarts from the checkpoint, grouped records across a restart, rotation by rename and by
 * copytruncate, globs, gzip and engine detection. Every line is a request with its own id, so
 * "exactly once" is checked on the list of ids read back {@code read_committed}.
 */
final class FollowerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
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
      new KafkaSettings(
          broker.bootstrapServers(), 3, "follow" + PREFIXES.incrementAndGet(), Map.of());

  @BeforeAll
  static void startBroker() {
    broker = EmbeddedBroker.start();
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  @Test
  void shipsLinesAsTheyAreAppendedAndHoldsAPartialLastLineUntilItsNewline() throws Exception {
    Path log = dir.resolve("server.log");
    String sixth = VllmLines.request("r", 6);
    append(log, requests("r", 1, 5) + sixth.substring(0, 40));
    Running running = start(settings(false, Engine.VLLM, log.toString()));

    awaitIds(ids -> ids.size() == 5);
    append(log, sixth.substring(40) + VllmLines.request("r", 7));
    awaitIds(ids -> ids.size() == 7);
    FollowSummary summary = running.stop();

    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("r", 1, 7));
    assertThat(summary.counts().lines()).isEqualTo(7);
    assertThat(summary.records()).isEqualTo(7);
    assertThat(summary.problems()).isEmpty();
  }

  @Test
  void aRestartResumesFromTheCheckpointWithoutLosingOrRepeatingALine() throws Exception {
    Path log = dir.resolve("server.log");
    append(log, requests("r", 1, 100));
    FollowSummary first = once(Engine.VLLM, log.toString());
    append(log, requests("r", 101, 150));
    FollowSummary second = once(Engine.VLLM, log.toString());

    assertThat(first.counts().lines()).isEqualTo(100);
    assertThat(second.counts().lines()).isEqualTo(50);
    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("r", 1, 150));
    List<EngineEvent> events = CommittedRecords.read(kafka).events;
    RequestArrived last = (RequestArrived) find(events, "r-0000150");
    assertThat(last.source().line()).isEqualTo(150);
    assertThat(last.source().offset())
        .isEqualTo(Files.size(log) - VllmLines.request("r", 150).length());
  }

  @Test
  void aRecordGroupedAcrossARestartIsShippedOnceByTheNextRun() throws Exception {
    Path log = dir.resolve("server.log");
    append(log, requests("r", 1, 3) + VllmLines.warningWithTraceback());
    once(Engine.VLLM, log.toString());
    List<EngineEvent> afterFirst = CommittedRecords.read(kafka).events;
    append(log, VllmLines.request("r", 4));
    FollowSummary second = once(Engine.VLLM, log.toString());

    assertThat(afterFirst).hasSize(3).allMatch(event -> event instanceof RequestArrived);
    List<EngineEvent> events = CommittedRecords.read(kafka).events;
    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("r", 1, 4));
    assertThat(events.stream().filter(event -> event instanceof ServerNotice))
        .extracting(event -> event.source().line())
        .containsExactlyInAnyOrder(4L, 5L);
    assertThat(second.counts().lines()).as("lines 4..8 read again by the second run").isEqualTo(5);
  }

  @Test
  void aFileRenamedByRotationIsReadToItsEndAndItsSuccessorFromItsStart() throws Exception {
    Path log = dir.resolve("server.log");
    append(log, requests("r", 1, 50));
    Running running = start(settings(false, Engine.VLLM, log.toString()));
    awaitIds(ids -> ids.size() == 50);

    Path rotated = dir.resolve("server.log.1");
    Files.move(log, rotated);
    append(rotated, requests("r", 51, 60)); // the server writes on until it reopens its log
    append(log, requests("r", 61, 100));
    awaitIds(ids -> ids.size() == 100);
    FollowSummary summary = running.stop();

    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("r", 1, 100));
    List<EngineEvent> events = CommittedRecords.read(kafka).events;
    assertThat(find(events, "r-0000060").source().path()).isEqualTo(log.toString());
    assertThat(find(events, "r-0000060").source().line()).isEqualTo(60);
    assertThat(find(events, "r-0000061").source().line()).isEqualTo(1);
    assertThat(summary.counts().lines()).isEqualTo(100);
  }

  @Test
  void aFileTruncatedByCopytruncateIsReadAgainFromItsStart() throws Exception {
    Path log = dir.resolve("server.log");
    append(log, requests("r", 1, 50));
    Running running = start(settings(false, Engine.VLLM, log.toString()));
    awaitIds(ids -> ids.size() == 50);

    Files.copy(log, dir.resolve("server.log.1"), StandardCopyOption.REPLACE_EXISTING);
    Files.write(log, new byte[0], StandardOpenOption.TRUNCATE_EXISTING);
    append(log, requests("r", 51, 80));
    awaitIds(ids -> ids.size() == 80);
    running.stop();

    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("r", 1, 80));
    assertThat(find(CommittedRecords.read(kafka).events, "r-0000051").source().line()).isEqualTo(1);
  }

  @Test
  void aGlobPicksUpNewFilesAndNamesEachInstanceAfterItsDirectory() throws Exception {
    Path first = dir.resolve("vllm-a/server.log");
    Files.createDirectories(first.getParent());
    append(first, requests("a", 1, 10));
    FollowSettings settings =
        withNaming(settings(false, Engine.VLLM, dir + "/*/server.log"), InstanceNaming.DIR);
    Running running = start(settings);
    awaitIds(ids -> ids.size() == 10);

    Path second = dir.resolve("vllm-b/server.log");
    Files.createDirectories(second.getParent());
    append(second, requests("b", 1, 10));
    awaitIds(ids -> ids.size() == 20);
    running.stop();

    List<EngineEvent> events = CommittedRecords.read(kafka).events;
    assertThat(find(events, "a-0000001").instance()).isEqualTo("vllm-a");
    assertThat(find(events, "b-0000010").instance()).isEqualTo("vllm-b");
    assertThat(find(events, "b-0000010").source().path()).isEqualTo(second.toString());
  }

  @Test
  void aGzipFileListedExplicitlyIsShippedOnceAcrossRuns() throws Exception {
    Path rotated = dir.resolve("server.log.2.gz");
    try (OutputStream gzip = new GZIPOutputStream(Files.newOutputStream(rotated))) {
      gzip.write(requests("z", 1, 20).getBytes(UTF_8));
    }
    FollowSummary first = once(Engine.VLLM, rotated.toString());
    FollowSummary second = once(Engine.VLLM, rotated.toString());

    assertThat(first.counts().lines()).isEqualTo(20);
    assertThat(second.counts().lines()).isZero();
    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("z", 1, 20));
  }

  @Test
  void theEngineOfANewFileIsDetectedOnceItHasEnoughLines() throws Exception {
    Path log = dir.resolve("server.log");
    append(log, VllmLines.request("d", 1));
    Running running = start(settings(false, null, log.toString()));
    awaitIds(ids -> ids.size() == 1); // the detection timeout decides with one line
    append(log, requests("d", 2, 30));
    awaitIds(ids -> ids.size() == 30);
    running.stop();

    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("d", 1, 30));
  }

  @Test
  void aFailedTransactionIsAbortedAndEveryFileReadAgainFromTheCheckpoint() throws Exception {
    Path first = dir.resolve("a.log");
    Path second = dir.resolve("b.log");
    append(first, requests("a", 1, 300));
    append(second, requests("b", 1, 20) + VllmLines.warningWithTraceback());
    AtomicInteger sent = new AtomicInteger();
    Follower follower =
        new Follower(
            settings(false, Engine.VLLM, first.toString(), second.toString()),
            kafka,
            Parsers::create,
            shipping -> new FailingAt(shipping, sent, 150, 420));
    FutureTask<FollowSummary> task = new FutureTask<>(follower::run);
    new Thread(task, "follower-it").start();
    awaitIds(ids -> ids.size() == 320);
    append(first, requests("a", 301, 310));
    append(second, VllmLines.request("b", 21));
    awaitIds(ids -> ids.size() == 331);
    follower.stop();
    FollowSummary summary = task.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

    List<String> expected = new ArrayList<>(ids("a", 1, 310));
    expected.addAll(ids("b", 1, 21));
    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(CommittedRecords.read(kafka).events)
        .filteredOn(event -> event instanceof ServerNotice)
        .hasSize(2);
    assertThat(summary.rewinds()).isEqualTo(2);
    assertThat(summary.counts().lines()).isEqualTo(310 + 21 + 4);
  }

  @Test
  void unreadablePathsAreReportedWhileTheOtherFilesFlow() throws Exception {
    Path log = dir.resolve("server.log");
    append(log, requests("r", 1, 10));
    Path directory = Files.createDirectories(dir.resolve("a-directory.log"));
    Path missing = dir.resolve("missing.log");
    FollowSummary summary =
        new Follower(
                settings(
                    true, Engine.VLLM, log.toString(), directory.toString(), missing.toString()),
                kafka,
                Parsers::create)
            .run();

    assertThat(requestIds()).containsExactlyInAnyOrderElementsOf(ids("r", 1, 10));
    assertThat(summary.problems())
        .containsExactlyInAnyOrder(
            directory + ": is a directory, not a file", missing + ": no such file");
  }

  // --- helpers

  /** Fails the transaction at the given sends, as Kafka does when it refuses a record. */
  private static final class FailingAt implements TailOutput {
    private final TailOutput shipping;
    private final AtomicInteger sent;
    private final Set<Integer> failing;

    FailingAt(TailOutput shipping, AtomicInteger sent, Integer... failing) {
      this.shipping = shipping;
      this.sent = sent;
      this.failing = Set.of(failing);
    }

    @Override
    public void event(EngineEvent event) {
      if (failing.contains(sent.incrementAndGet())) {
        throw new KafkaException("injected: record refused");
      }
      shipping.event(event);
    }

    @Override
    public void rejected(Rejection rejection, byte[] rawLine) {
      shipping.rejected(rejection, rawLine);
    }
  }

  private FollowSettings settings(boolean once, @Nullable Engine engine, String... specs) {
    List<SourceSpec> sources = new ArrayList<>();
    for (String spec : specs) {
      sources.add(SourceSpec.parse(spec));
    }
    return new FollowSettings(
        "it-" + kafka.topicPrefix(),
        sources,
        "vllm-0",
        InstanceNaming.FIXED,
        engine,
        ZoneOffset.UTC,
        2026,
        LineSplitter.DEFAULT_MAX_LINE_BYTES,
        StartAt.BEGINNING,
        once,
        FAST);
  }

  private static FollowSettings withNaming(FollowSettings settings, InstanceNaming naming) {
    return new FollowSettings(
        settings.shipperId(),
        settings.sources(),
        settings.instance(),
        naming,
        settings.engine(),
        settings.zone(),
        settings.year(),
        settings.maxLineBytes(),
        settings.startAt(),
        settings.once(),
        settings.timing());
  }

  private FollowSummary once(@Nullable Engine engine, String... specs) {
    return new Follower(settings(true, engine, specs), kafka, Parsers::create).run();
  }

  private Running start(FollowSettings settings) {
    Follower follower = new Follower(settings, kafka, Parsers::create);
    FutureTask<FollowSummary> task = new FutureTask<>(follower::run);
    Thread thread = new Thread(task, "follower-it");
    thread.start();
    return new Running(follower, task);
  }

  private record Running(Follower follower, FutureTask<FollowSummary> task) {
    FollowSummary stop() throws InterruptedException, ExecutionException, TimeoutException {
      follower.stop();
      return task.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  private void awaitIds(Predicate<List<String>> done) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    List<String> ids = requestIds();
    while (!done.test(ids)) {
      assertThat(System.nanoTime())
          .as("waiting for events, have " + ids.size())
          .isLessThan(deadline);
      Thread.sleep(50);
      ids = requestIds();
    }
  }

  private List<String> requestIds() {
    return CommittedRecords.read(kafka).requestIds();
  }

  private static EngineEvent find(List<EngineEvent> events, String requestId) {
    return events.stream()
        .filter(event -> event instanceof RequestArrived)
        .filter(event -> ((RequestArrived) event).requestId().equals(requestId))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no event for " + requestId));
  }

  private static String requests(String prefix, long from, long to) {
    return LongStream.rangeClosed(from, to)
        .mapToObj(serial -> VllmLines.request(prefix, serial))
        .collect(Collectors.joining());
  }

  private static List<String> ids(String prefix, long from, long to) {
    return LongStream.rangeClosed(from, to)
        .mapToObj(serial -> String.format("%s-%07d", prefix, serial))
        .collect(Collectors.toList());
  }

  private static void append(Path file, String text) throws IOException {
    Files.write(file, text.getBytes(UTF_8), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }
}
