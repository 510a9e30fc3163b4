package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import java.util.regex.Pattern;

/**
 * A Kafka topic partition as the lake names it: {@code <topic>-<partition>}, the same spelling as
 * Kafka's own {@code TopicPartition.toString()}. The store does not depend on Kafka.
 */
public record LakePartition(String topic, int partition) implements Comparable<LakePartition> {
  /** Kafka's legal topic characters (its {@code Topic.validate}); no path separator among them. */
  private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  public LakePartition {
    requireNonNull(topic, "topic is null");
    if (!TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
      throw new IllegalArgumentException("not a Kafka topic name: '" + topic + "'");
    }
    if (partition < 0) {
      throw new IllegalArgumentException("partition must be >= 0: " + partition);
    }
  }

  @Override
  public int compareTo(LakePartition other) {
    int byTopic = topic.compareTo(other.topic);
    return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
  }

  @Override
  public String toString() {
    return topic + "-" + partition;
  }
}
