package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.store.lake.LakeCompactor;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeTables;
import dev.tokentrace.store.lake.LakeWriter;
import dev.tokentrace.table.TableSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes {@code <prefix>.events} and {@code <prefix>.rejects} into the Parquet lake, exactly once
 * (docs/storage.md#lake-commit-protocol), as one member of a Kafka consumer group: sinks of one
 * group share the partitions. On assignment each partition is recovered from the lake (what a
 * crashed writer left is removed) and the consumer seeks to just after its last committed file: the
 * lake, not Kafka's committed offsets, is the record of progress. Rows are decoded by the same
 * {@link RecordWriter} as the DuckDB sink and staged in the {@link LakeWriter}; every flush
 * interval (or flush-rows rows) each partition's rows are written and committed. On revocation the
 * revoked partitions are flushed and committed before another member gets them; lost partitions
 * (session expired) are dropped uncommitted. Kafka offsets are committed after each flush for lag
 * monitoring only. The partitions it owns are compacted every compact interval.
 *
 * <p>Runs on one thread ({@link #runUntilStopped()} or {@link #runUntilCaughtUp()}, then {@link
 * #close()}); {@link #stop()}, {@link #stopWhenCaughtUp} and {@link #progress()} from any thread.
 */
public final class KafkaToLake implements LiveSink {
  private static final Logger log = LoggerFactory.getLogger(KafkaToLake.class);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

  /** The flush interval while polls come back full (a backlog): see {@link #flushDue}. */
  static final Duration BACKLOG_FLUSH = Duration.ofSeconds(5);

  private final LakeSinkSettings settings;
  private final Consumer<String, byte[]> consumer;
  private final LakeWriter writer;
  private final TopicLayout layout;
  private final Clock clock;
  private final RecordWriter records;
  private final int maxPollRecords;
  private final Map<TopicPartition, LakePartition> partitions = new HashMap<>();
  private final Set<TopicPartition> owned = ConcurrentHashMap.newKeySet();
  private final Map<String, Long> written = new LinkedHashMap<>();
  private final SinkLoop loop;
  private boolean failed;
  private long lastFlush;
  private long lastCompaction;
  private long lastProgress;
  private long undecodable;

  private KafkaToLake(
      LakeSinkSettings settings,
      Consumer<String, byte[]> consumer,
      LakeWriter writer,
      TopicLayout layout,
      KafkaSettings kafka,
      Clock clock) {
    this.settings = settings;
    this.consumer = consumer;
    this.writer = writer;
    this.layout = layout;
    this.clock = clock;
    this.records = new RecordWriter(kafka.topics());
    this.maxPollRecords =
        Integer.parseInt(
            kafka.consumerProperties().get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG).toString());
    this.loop = new SinkLoop("lake sink", consumer, settings.pollTimeout(), new Target());
  }

  /**
   * Checks (or creates) the lake, connects to Kafka and subscribes to both topics in the group;
   * partitions are assigned by the first poll.
   *
   * @throws IllegalArgumentException when the directory is not a lake, or a lake of another topic
   *     prefix or group
   * @throws IllegalStateException when a topic does not exist or Kafka does not answer
   */
  public static KafkaToLake open(LakeSinkSettings settings, KafkaSettings kafka, Clock clock) {
    return open(settings, kafka, clock, METADATA_TIMEOUT);
  }

  /**
   * Like {@link #open(LakeSinkSettings, KafkaSettings, Clock)}; describing the topics and the
   * consumer's metadata calls give up after {@code connectTimeout} with one line naming the servers
   * ({@code --connect-timeout}).
   */
  public static KafkaToLake open(
      LakeSinkSettings settings, KafkaSettings kafka, Clock clock, Duration connectTimeout) {
    requireNonNull(connectTimeout, "connectTimeout is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(kafka, "kafka is null");
    requireNonNull(clock, "clock is null");
    LakeWriter writer =
        LakeWriter.open(
            settings.lake(),
            LakeMarker.of(kafka.topics().prefix(), settings.group()),
            settings.memoryLimit(),
            settings.threads(),
            clock);
    Consumer<String, byte[]> consumer = null;
    try {
      TopicLayout layout = TopicLayout.describe(kafka, connectTimeout);
      Map<String, Object> properties = kafka.consumerProperties();
      properties.putIfAbsent(
          ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) connectTimeout.toMillis());
      properties.put(ConsumerConfig.GROUP_ID_CONFIG, settings.group());
      properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "tokentrace-lake-sink");
      consumer = new KafkaConsumer<>(properties);
      KafkaToLake sink = new KafkaToLake(settings, consumer, writer, layout, kafka, clock);
      consumer.subscribe(kafka.topics().all(), sink.new Rebalance());
      return sink;
    } catch (RuntimeException e) {
      if (consumer != null) {
        try {
          consumer.close();
        } catch (RuntimeException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      writer.close();
      throw KafkaToDuckDb.unreachableIfTimedOut(e, kafka, connectTimeout);
    }
  }

  /** Consumes until its partitions reach the end offsets they have now (batch mode). */
  public SinkSummary runUntilCaughtUp() {
    return loop.runUntilCaughtUp(settings.lake());
  }

  @Override
  public SinkSummary runUntilStopped() {
    return loop.run(settings.lake());
  }

  @Override
  public void stop() {
    loop.stop();
  }

  @Override
  public void stopWhenCaughtUp(Map<TopicPartition, Long> atLeast) {
    loop.stopWhenCaughtUp(atLeast);
  }

  @Override
  public SinkProgress progress() {
    return loop.progress();
  }

  @Override
  public String target() {
    return settings.lake().toString();
  }

  /** The lake directory. */
  public Path lake() {
    return writer.lake();
  }

  /** The partitions this member owns now. */
  public Set<TopicPartition> owned() {
    return Set.copyOf(owned);
  }

  /** Closes the consumer (leaving the group; owned partitions are flushed first) and the writer. */
  @Override
  public void close() {
    RuntimeException failure = null;
    try {
      // Runs the revocation listener (nothing is staged after a run: its last flush committed
      // everything) and leaves the group at once, so the others rebalance without waiting for the
      // session timeout; bounded, so that SIGTERM ends the sink within its grace period.
      consumer.close(CloseOptions.timeout(CLOSE_TIMEOUT));
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      writer.close();
    } catch (RuntimeException e) {
      if (failure == null) {
        failure = e;
      } else {
        failure.addSuppressed(e);
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * The lake as the consume loop's target: rows are staged per partition and each partition's files
   * committed every flush interval; the partitions are those the group assigned.
   */
  private final class Target implements SinkLoop.Target {
    @Override
    public void runStarts(long startedNanos) {
      lastFlush = startedNanos;
      lastCompaction = startedNanos;
      lastProgress = startedNanos;
      resetCounts();
    }

    @Override
    public boolean caughtUp(Map<TopicPartition, Long> atLeast, boolean lastPollEmpty) {
      return lastPollEmpty && KafkaToLake.this.caughtUp(lastProgress, atLeast);
    }

    @Override
    public void append(ConsumerRecords<String, byte[]> records) {
      KafkaToLake.this.append(records);
      lastProgress = System.nanoTime();
    }

    @Override
    public Collection<TopicPartition> lagPartitions() {
      return owned;
    }

    @Override
    public void afterPoll(int polled, long lag) {
      long now = System.nanoTime();
      if (flushDue(now, polled)) {
        flush(owned, false);
        lastFlush = System.nanoTime();
      }
      if (!settings.compactInterval().isZero()
          && !loop.stopRequested()
          && now - lastCompaction >= settings.compactInterval().toNanos()) {
        compact();
        lastCompaction = System.nanoTime();
      }
    }

    @Override
    public void finish() {
      flush(owned, true); // stopped or caught up: everything consumed is committed
    }

    @Override
    public void failed() {
      failed = true; // the revocation on close must not commit a half-appended poll
    }

    @Override
    public SinkSummary summary(Duration elapsed, long batches) {
      return KafkaToLake.this.summary(elapsed, batches);
    }
  }

  /**
   * Whether to flush now: after flush-rows rows; else once the flush interval has passed since the
   * last flush ended, unless the poll was full (a backlog is being worked off: each flush costs a
   * file per table and partition and their syncs, so a backlog is flushed every {@link
   * #BACKLOG_FLUSH} instead, in fewer and larger files; live tailing never fills a poll).
   */
  private boolean flushDue(long now, int polled) {
    if (writer.stagedRows() >= settings.flushRows()) {
      return true;
    }
    long since = now - lastFlush;
    if (polled >= maxPollRecords) {
      return since >= Math.max(settings.flushInterval().toNanos(), BACKLOG_FLUSH.toNanos());
    }
    return since >= settings.flushInterval().toNanos();
  }

  private void append(ConsumerRecords<String, byte[]> polled) {
    Instant ingested = clock.instant();
    for (TopicPartition partition : polled.partitions()) {
      LakePartition lake = lakePartition(partition);
      RowAppender rows = new PartitionRows(lake);
      long next = -1;
      for (ConsumerRecord<String, byte[]> record : polled.records(partition)) {
        try {
          records.write(record, rows, ingested);
        } catch (SQLException e) {
          throw new IllegalStateException(
              "lake " + settings.lake() + ": staging a row of " + partition + " failed", e);
        }
        next = record.offset() + 1;
      }
      writer.advance(lake, next);
    }
    undecodable += records.takeUndecodable();
  }

  /** Flushes and commits the given partitions; re-takes any that another member committed. */
  private void flush(Collection<TopicPartition> which, boolean evenIfEmpty) {
    List<LakePartition> lakes = new ArrayList<>();
    for (TopicPartition partition : which) {
      lakes.add(lakePartition(partition));
    }
    LakeWriter.Flushed flushed;
    try {
      flushed = writer.flush(lakes, evenIfEmpty);
    } catch (SQLException | IOException e) {
      throw new IllegalStateException(
          "lake " + settings.lake() + ": writing a flush failed: " + e.getMessage(), e);
    }
    if (!flushed.committed().isEmpty()) {
      loop.committed(flushed.rows());
      Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
      for (Map.Entry<LakePartition, Map<String, Long>> entry : flushed.committed().entrySet()) {
        entry.getValue().forEach((table, rows) -> written.merge(table, rows, Long::sum));
        TopicPartition partition = topicPartition(entry.getKey());
        Long next = flushed.nextOffsets().get(entry.getKey());
        if (owned.contains(partition) && next != null) {
          offsets.put(partition, new OffsetAndMetadata(next));
        }
      }
      if (!offsets.isEmpty()) {
        consumer.commitAsync(offsets, null); // for lag monitoring only: the lake is the record
      }
    }
    for (LakePartition fenced : flushed.fenced()) {
      TopicPartition partition = topicPartition(fenced);
      log.warn(
          "lake {}: {} was committed by another sink since this one took it (a rebalance it had"
              + " not heard of): its rows here were dropped; resuming from the lake",
          settings.lake(),
          fenced);
      if (owned.contains(partition)) {
        take(partition);
      }
    }
  }

  private void compact() {
    Set<LakePartition> mine = new HashSet<>();
    for (TopicPartition partition : owned) {
      mine.add(lakePartition(partition));
    }
    if (mine.isEmpty()) {
      return;
    }
    LakeCompactor.Result result =
        LakeCompactor.compact(
            settings.lake(),
            settings.compaction(),
            mine::contains,
            Instant.now(),
            loop::stopRequested);
    if (!result.overlapping().isEmpty()) {
      log.warn("lake {}: compaction: {}", settings.lake(), result.describe());
    } else if (result.written() > 0 || result.deleted() > 0) {
      log.debug("lake {}: compaction: {}", settings.lake(), result.describe());
    }
  }

  /** Recovers a partition from the lake and seeks the consumer to where it resumes. */
  private void take(TopicPartition partition) {
    LakePartition lake = lakePartition(partition);
    String topicId = requireNonNull(layout.topicIds().get(partition.topic()), "topic id");
    LakeWriter.Recovery recovery = writer.recover(lake, topicId);
    if (!recovery.removed().isEmpty()) {
      log.warn(
          "lake {}: {}: removed {} file(s) a writer left without committing them, e.g. {}",
          settings.lake(),
          lake,
          recovery.removed().size(),
          recovery.removed().get(0).getFileName());
    }
    OptionalLong next = recovery.nextOffset();
    if (next.isPresent()) {
      consumer.seek(partition, next.getAsLong());
    } else {
      consumer.seekToBeginning(List.of(partition));
      writer.startAt(lake, consumer.position(partition));
    }
    owned.add(partition);
    log.info(
        "lake {}: took {} at offset {}",
        settings.lake(),
        lake,
        next.isPresent() ? next.getAsLong() : "beginning");
  }

  private boolean caughtUp(long lastProgress, Map<TopicPartition, Long> drainAtLeast) {
    Set<TopicPartition> assignment = consumer.assignment();
    if (assignment.isEmpty()) {
      checkStall(lastProgress, "no partition assigned");
      return false;
    }
    Map<TopicPartition, Long> ends = consumer.endOffsets(assignment);
    for (TopicPartition partition : assignment) {
      long required =
          Math.max(ends.getOrDefault(partition, 0L), drainAtLeast.getOrDefault(partition, 0L));
      if (consumer.position(partition) < required) {
        checkStall(lastProgress, partition + " is behind its end offset " + required);
        return false;
      }
    }
    return true;
  }

  private void checkStall(long lastProgress, String why) {
    Duration idle = Duration.ofNanos(System.nanoTime() - lastProgress);
    if (idle.compareTo(settings.stallTimeout()) > 0) {
      throw new IllegalStateException(
          "kafka: no record for " + idle.toSeconds() + " s while " + why + "; is the broker up?");
    }
  }

  private LakePartition lakePartition(TopicPartition partition) {
    return partitions.computeIfAbsent(
        partition, key -> new LakePartition(key.topic(), key.partition()));
  }

  private static TopicPartition topicPartition(LakePartition partition) {
    return new TopicPartition(partition.topic(), partition.partition());
  }

  private void resetCounts() {
    written.clear();
    for (TableSchema<?> table : LakeTables.ALL) {
      written.put(table.name(), 0L);
    }
    undecodable = 0;
  }

  private SinkSummary summary(Duration elapsed, long batches) {
    Map<String, Long> events = new LinkedHashMap<>(written);
    Long rejects = events.remove(RejectRow.TABLE.name());
    return new SinkSummary(events, rejects == null ? 0 : rejects, undecodable, batches, elapsed);
  }

  /** Stages rows of one partition. */
  private final class PartitionRows implements RowAppender {
    private final LakePartition partition;

    PartitionRows(LakePartition partition) {
      this.partition = partition;
    }

    @Override
    public <R> void append(TableSchema<R> table, R row) throws SQLException {
      writer.append(partition, table, row);
    }
  }

  /** Takes partitions on assignment, commits them on revocation, drops them when lost. */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> assigned) {
      for (TopicPartition partition : assigned) {
        take(partition);
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> revoked) {
      List<TopicPartition> mine = new ArrayList<>();
      for (TopicPartition partition : revoked) {
        if (owned.contains(partition)) {
          mine.add(partition);
        }
      }
      if (!failed && !mine.isEmpty()) {
        flush(mine, true);
      }
      for (TopicPartition partition : mine) {
        writer.discard(lakePartition(partition));
        owned.remove(partition);
      }
      log.info("lake {}: gave up {}", settings.lake(), mine);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> lost) {
      for (TopicPartition partition : lost) {
        writer.discard(lakePartition(partition));
        owned.remove(partition);
      }
      log.warn(
          "lake {}: lost {} (session expired): their uncommitted rows are left to the new owner",
          settings.lake(),
          lost);
    }
  }
}
