package dev.tokentrace.ingest.sink;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * Decides when a draining sink is done: the end offsets are taken once, when draining starts, and
 * the sink is caught up when its position reached them on every partition, and reached the offsets
 * the caller knows were committed ({@code atLeast}: a shipper's transactions, whose commit markers
 * may not be visible yet when the end offsets are read). Fails when no record arrives for the stall
 * timeout while still behind (the broker is gone or unreachable), instead of waiting forever. Not
 * thread-safe.
 */
final class Drain {
  private final Duration stallTimeout;
  private @Nullable Map<TopicPartition, Long> target;
  private long lastProgress;

  Drain(Duration stallTimeout) {
    this.stallTimeout = stallTimeout;
  }

  boolean caughtUp(Consumer<?, ?> consumer, List<TopicPartition> partitions) {
    return caughtUp(consumer, partitions, Map.of());
  }

  boolean caughtUp(
      Consumer<?, ?> consumer, List<TopicPartition> partitions, Map<TopicPartition, Long> atLeast) {
    Map<TopicPartition, Long> end = target;
    if (end == null) {
      end = new HashMap<>(consumer.endOffsets(partitions));
      target = end;
      lastProgress = System.nanoTime();
    }
    for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
      long required = Math.max(partition.getValue(), atLeast.getOrDefault(partition.getKey(), 0L));
      if (consumer.position(partition.getKey()) < required) {
        checkStall(partition.getKey(), required);
        return false;
      }
    }
    return true;
  }

  void progressed() {
    lastProgress = System.nanoTime();
  }

  private void checkStall(TopicPartition partition, long end) {
    Duration idle = Duration.ofNanos(System.nanoTime() - lastProgress);
    if (idle.compareTo(stallTimeout) > 0) {
      throw new IllegalStateException(
          "kafka: no record for "
              + idle.toSeconds()
              + " s while "
              + partition
              + " is behind its end offset "
              + end
              + "; is the broker still reachable?");
    }
  }
}
