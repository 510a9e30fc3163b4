package dev.tokentrace.exporter;

import java.util.List;

/**
 * Where the consumer lag of the sinks comes from (docs/live.md#consumer-lag): the exporter knows no
 * Kafka, so the command that has the Kafka options gives it a reader of the lag per topic
 * partition. Each {@link #read()} is one fresh look; a failure (Kafka unreachable) is thrown, and
 * the exporter then exports no lag until a read succeeds again.
 */
public interface ConsumerLagReader {
  /**
   * How far the sinks of {@code group} trail one partition.
   *
   * @param group the sinks' consumer group
   * @param topic the topic
   * @param partition the partition
   * @param lag records (offsets) between the sinks' committed position and the newest committed
   *     record (the last stable offset); 0 when they have everything
   */
  record PartitionLag(String group, String topic, int partition, long lag) {}

  /** The lag of every partition of the sinks' topics, now. */
  List<PartitionLag> read() throws Exception;

  /** What is read, for messages (say, the brokers). */
  String describe();
}
