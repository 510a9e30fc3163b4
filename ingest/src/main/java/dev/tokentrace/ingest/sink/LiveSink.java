package dev.tokentrace.ingest.sink;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * A sink that follows the topics until stopped: into the DuckDB file ({@link KafkaToDuckDb}) or the
 * Parquet lake ({@link KafkaToLake}). {@link #runUntilStopped()} and {@link #close()} on one
 * thread; {@link #stop()}, {@link #stopWhenCaughtUp(Map)} and {@link #progress()} from any.
 */
public interface LiveSink extends AutoCloseable {
  /** Consumes until {@link #stop()} or {@link #stopWhenCaughtUp(Map)}; returns what it wrote. */
  SinkSummary runUntilStopped();

  /** Ends the run after the batch being written. */
  void stop();

  /**
   * Ends the run once it consumed everything in the topics now, and at least up to {@code atLeast}
   * (the ends of transactions a shipper committed).
   */
  void stopWhenCaughtUp(Map<TopicPartition, Long> atLeast);

  /** Rows and batches committed so far, and the lag. */
  SinkProgress progress();

  /** Where it writes, for messages. */
  String target();

  @Override
  void close();
}
