package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consume loop both sinks run (docs/design.md#exactly-once): poll, hand the records to the
 * target, measure the lag, let the target commit when it is due, stop when asked or when drained,
 * and commit what was consumed before returning. What "commit" means, which partitions the sink
 * holds (all of them, sought to the offsets in the DuckDB file; or a consumer group's share,
 * recovered from the lake on assignment) and when it is caught up belong to the {@link Target}:
 * {@link KafkaToDuckDb}, {@link KafkaToLake}.
 *
 * <p>{@link #run} on one thread; {@link #stop()}, {@link #stopWhenCaughtUp} and {@link #progress()}
 * from any thread.
 */
final class SinkLoop {
  private static final Logger log = LoggerFactory.getLogger(SinkLoop.class);

  /** Where the records go. Called on the loop's thread only. */
  interface Target {
    /** A run begins: per-run counts are reset. */
    void runStarts(long startedNanos);

    /**
     * Whether a draining run is done: every partition reached its end offset and {@code atLeast}.
     *
     * @param lastPollEmpty whether the last poll of this run returned nothing (false before it)
     */
    boolean caughtUp(Map<TopicPartition, Long> atLeast, boolean lastPollEmpty);

    /** Appends one non-empty poll's rows. */
    void append(ConsumerRecords<String, byte[]> records);

    /** The partitions whose lag counts (the ones the sink holds). */
    Collection<TopicPartition> lagPartitions();

    /** After each poll of {@code polled} records: commits if one is due, and upkeep. */
    void afterPoll(int polled, long lag);

    /** The run ends (stopped or caught up): commits everything consumed. */
    void finish();

    /** The run failed with an exception; nothing may be committed on close. */
    void failed();

    /** What the run wrote; {@code batches} commits in it. */
    SinkSummary summary(Duration elapsed, long batches);
  }

  private final String name;
  private final Consumer<String, byte[]> consumer;
  private final Duration pollTimeout;
  private final Target target;
  private final AtomicLong rowsCommitted = new AtomicLong();
  private volatile long batchesCommitted;
  private volatile long lag = -1;
  private volatile boolean stopRequested;
  private volatile boolean drainRequested;
  private volatile Map<TopicPartition, Long> drainAtLeast = Map.of();
  private long batches;

  /**
   * @param name the sink's name in log lines, e.g. {@code duckdb sink}
   */
  SinkLoop(String name, Consumer<String, byte[]> consumer, Duration pollTimeout, Target target) {
    this.name = requireNonNull(name, "name is null");
    this.consumer = requireNonNull(consumer, "consumer is null");
    this.pollTimeout = requireNonNull(pollTimeout, "pollTimeout is null");
    this.target = requireNonNull(target, "target is null");
  }

  /** Consumes until every partition reaches its end offset (batch mode). */
  SinkSummary runUntilCaughtUp(Object where) {
    drainRequested = true;
    return run(where);
  }

  /** Consumes until {@link #stop()} or {@link #stopWhenCaughtUp}. */
  SinkSummary run(Object where) {
    long started = System.nanoTime();
    batches = 0;
    target.runStarts(started);
    boolean lastPollEmpty = false;
    try {
      while (!stopRequested) {
        try {
          if (drainRequested && target.caughtUp(drainAtLeast, lastPollEmpty)) {
            break;
          }
          ConsumerRecords<String, byte[]> records = consumer.poll(pollTimeout);
          lastPollEmpty = records.isEmpty();
          if (!records.isEmpty()) {
            target.append(records);
          }
          lag = currentLag();
          target.afterPoll(records.count(), lag);
        } catch (WakeupException e) {
          // stop() or stopWhenCaughtUp() interrupted a consumer call; the loop re-reads the flags
          lastPollEmpty = false;
          log.debug("{}: woken up", name);
        }
      }
      target.finish(); // caught up or stopped: what was appended is committed before returning
    } catch (RuntimeException e) {
      target.failed();
      throw e;
    } finally {
      stopRequested = false;
      drainRequested = false;
      drainAtLeast = Map.of();
    }
    SinkSummary summary = target.summary(Duration.ofNanos(System.nanoTime() - started), batches);
    log.info("{} {}: {}", name, where, summary.describe());
    return summary;
  }

  /** Ends the run after the batch being written, if any. Thread-safe. */
  void stop() {
    stopRequested = true;
    consumer.wakeup();
  }

  /**
   * Ends the run once it consumed everything in the topics at the time of this call and, on every
   * partition, reached {@code atLeast} (the ends of the transactions a shipper committed, whose
   * markers may not be visible yet). Thread-safe.
   */
  void stopWhenCaughtUp(Map<TopicPartition, Long> atLeast) {
    drainAtLeast = Map.copyOf(atLeast);
    drainRequested = true;
    consumer.wakeup();
  }

  /** Whether {@link #stop()} was called during this run: long work (a compaction) gives up. */
  boolean stopRequested() {
    return stopRequested;
  }

  /** The target committed a batch of {@code rows} records. */
  void committed(long rows) {
    batches++;
    batchesCommitted++;
    rowsCommitted.addAndGet(rows);
  }

  /** Commits in the current run. */
  long batches() {
    return batches;
  }

  /** Rows and batches committed since the sink was opened, and the consumer lag. Thread-safe. */
  SinkProgress progress() {
    return new SinkProgress(System.nanoTime(), rowsCommitted.get(), batchesCommitted, lag);
  }

  /**
   * Records behind the partitions' ends as of their last fetch (no request is made): the sum over
   * the partitions fetched so far; -1 before any was.
   */
  private long currentLag() {
    long total = -1;
    for (TopicPartition partition : target.lagPartitions()) {
      OptionalLong behind = consumer.currentLag(partition);
      if (behind.isPresent()) {
        total = Math.max(total, 0) + behind.getAsLong();
      }
    }
    return total;
  }
}
