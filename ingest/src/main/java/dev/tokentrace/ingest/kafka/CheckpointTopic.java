package dev.tokentrace.ingest.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a shipper's latest committed checkpoint from {@code <prefix>.checkpoints}, where {@link
 * TransactionalEventProducer#commit} writes it in the same transaction as the events.
 *
 * <p>Call it after the shipper's producer registered its transactional id (which aborts what a
 * killed predecessor left open). It first waits until every transaction that was open at the start
 * has ended: until then a newer checkpoint of ours could sit behind another shipper's open
 * transaction, invisible to a {@code read_committed} reader, and resuming from an older one would
 * ship lines twice. Then it reads backwards from the end in growing windows until it finds the
 * shipper's key (compaction keeps the topic short).
 */
public final class CheckpointTopic {
  private static final Logger log = LoggerFactory.getLogger(CheckpointTopic.class);

  private static final long FIRST_WINDOW = 256;
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration WAIT_LOG = Duration.ofSeconds(10);

  private CheckpointTopic() {}

  /**
   * The value of {@code shipperId}'s latest committed checkpoint record; empty when it has none
   * (first run) or its latest record is a tombstone.
   *
   * @throws IllegalStateException when the topic cannot be read within {@code timeout}
   */
  public static Optional<byte[]> latest(
      KafkaSettings settings, String shipperId, Duration timeout) {
    requireNonNull(shipperId, "shipperId is null");
    Map<String, Object> properties = settings.consumerProperties();
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "tokentrace-ship-checkpoints");
    TopicPartition partition = new TopicPartition(settings.topics().checkpoints(), 0);
    try (Consumer<String, byte[]> consumer = new KafkaConsumer<>(properties)) {
      consumer.assign(List.of(partition));
      long deadline = System.nanoTime() + timeout.toNanos();
      long begin = consumer.beginningOffsets(List.of(partition), timeout).get(partition);
      long end = logEnd(settings, partition, timeout);
      Window window = new Window(Math.max(begin, end - FIRST_WINDOW), end);
      while (true) {
        Optional<Optional<byte[]>> found = scan(consumer, partition, shipperId, window, deadline);
        if (found.isPresent() || window.from() <= begin) {
          return found.orElse(Optional.empty());
        }
        long size = 4 * (window.to() - window.from());
        window = new Window(Math.max(begin, window.from() - size), window.from());
      }
    }
  }

  /** The log end offset, open transactions included (a read_committed consumer sees less). */
  private static long logEnd(KafkaSettings settings, TopicPartition partition, Duration timeout) {
    Map<String, Object> properties = settings.consumerProperties();
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "tokentrace-ship-checkpoints-end");
    try (Consumer<String, byte[]> consumer = new KafkaConsumer<>(properties)) {
      return consumer.endOffsets(List.of(partition), timeout).get(partition);
    }
  }

  /**
   * The latest value of {@code key} in {@code [from, to)}: empty when the key is not in the window,
   * {@code Optional.of(Optional.empty())} for a tombstone.
   */
  private static Optional<Optional<byte[]>> scan(
      Consumer<String, byte[]> consumer,
      TopicPartition partition,
      String key,
      Window window,
      long deadline) {
    consumer.seek(partition, window.from());
    Optional<Optional<byte[]>> latest = Optional.empty();
    long started = System.nanoTime();
    long logged = started;
    while (consumer.position(partition) < window.to()) {
      for (ConsumerRecord<String, byte[]> record : consumer.poll(POLL).records(partition)) {
        if (record.offset() < window.to() && key.equals(record.key())) {
          latest = Optional.of(Optional.ofNullable(record.value()));
        }
      }
      long now = System.nanoTime();
      if (now > deadline) {
        throw new IllegalStateException(
            "kafka: reading checkpoints from "
                + partition
                + " timed out at offset "
                + consumer.position(partition)
                + " of "
                + window.to());
      }
      if (now - logged > WAIT_LOG.toNanos()) {
        logged = now;
        log.warn(
            "kafka: waiting for transactions open on {} to end before reading checkpoints (a"
                + " killed shipper's transaction ends when it restarts or times out)",
            partition);
      }
    }
    return latest;
  }

  private record Window(long from, long to) {}
}
