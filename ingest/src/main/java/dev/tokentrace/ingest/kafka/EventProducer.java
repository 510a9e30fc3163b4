package dev.tokentrace.ingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.Rejection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.utils.Utils;
import org.jspecify.annotations.Nullable;

/**
 * Sends events to {@code <prefix>.events} (key {@code EventRecords.key}, value {@link EventJson})
 * and rejected lines to {@code <prefix>.rejects} (key the source path, value the raw line, {@link
 * RejectHeaders} for where and why). Idempotent, {@code acks=all}, lz4 ({@link
 * KafkaSettings#producerProperties()}).
 *
 * <p>Sends are asynchronous. The first failed delivery is kept and thrown, as an {@link
 * IllegalStateException} naming the topic, by the next {@code event}/{@code rejected} call, by
 * {@link #flush()} and by {@link #close()}: a failure is never swallowed. {@link #flush()} returns
 * only when every record sent before it is acknowledged, which is the point where a shipper may
 * commit its file checkpoint. Memory is bounded by the producer's {@code buffer.memory}: sends
 * block when it is full (back-pressure).
 *
 * <p>{@link #openFileOrdered} sends the events of one source file to one partition (the one its
 * rejects go to, keyed by the path) while keeping the request key: then what a sink has stored of a
 * file is the first records it sent, in order, which is what lets a batch {@code ingest} killed
 * half-way resume (docs/follow.md#batch-resume).
 *
 * <p>Thread-safe as {@link KafkaProducer} is, but meant for one shipping thread.
 */
public final class EventProducer implements TailOutput, AutoCloseable {
  private final Producer<String, byte[]> producer;
  private final Topics topics;
  private final AtomicReference<@Nullable RuntimeException> failure = new AtomicReference<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();
  private final Callback eventsCallback;
  private final Callback rejectsCallback;
  private final boolean fileOrdered;
  private final Map<String, Integer> partitionOfPath = new HashMap<>();
  private int eventPartitions;

  private EventProducer(Producer<String, byte[]> producer, Topics topics, boolean fileOrdered) {
    this.producer = producer;
    this.topics = topics;
    this.fileOrdered = fileOrdered;
    this.eventsCallback = new Acknowledgement(topics.events());
    this.rejectsCallback = new Acknowledgement(topics.rejects());
  }

  /** Connects to {@code settings.bootstrapServers()} (must be set). */
  public static EventProducer open(KafkaSettings settings) {
    requireNonNull(settings, "settings is null");
    return new EventProducer(
        new KafkaProducer<>(settings.producerProperties()), settings.topics(), false);
  }

  /**
   * Like {@link #open}, but every event of one source path goes to one partition of the events
   * topic, so the records of a file reach a sink in the order they were sent.
   */
  public static EventProducer openFileOrdered(KafkaSettings settings) {
    requireNonNull(settings, "settings is null");
    return new EventProducer(
        new KafkaProducer<>(settings.producerProperties()), settings.topics(), true);
  }

  @Override
  public void event(EngineEvent event) {
    ProducerRecord<String, byte[]> record = EventRecords.event(topics, event);
    if (fileOrdered) {
      record =
          new ProducerRecord<>(
              record.topic(),
              partitionOf(event.source().path()),
              record.key(),
              record.value(),
              record.headers());
    }
    send(record, eventsCallback);
  }

  /** The partition Kafka's default partitioner gives the key {@code path}: murmur2, positive. */
  private int partitionOf(String path) {
    if (eventPartitions == 0) {
      try {
        eventPartitions = producer.partitionsFor(topics.events()).size();
      } catch (KafkaException e) {
        throw new IllegalStateException(
            "kafka: cannot read the partitions of " + topics.events() + ": " + e.getMessage(), e);
      }
    }
    return partitionOfPath.computeIfAbsent(
        path, key -> Utils.toPositive(Utils.murmur2(key.getBytes(UTF_8))) % eventPartitions);
  }

  @Override
  public void rejected(Rejection rejection, byte[] rawLine) {
    send(EventRecords.rejected(topics, rejection, rawLine), rejectsCallback);
  }

  /** Blocks until every record sent so far is acknowledged; throws the first failure. */
  public void flush() {
    producer.flush();
    throwIfFailed();
  }

  /** Records handed to the producer so far. */
  public long sent() {
    return sent.get();
  }

  /** Records Kafka acknowledged so far. */
  public long acknowledged() {
    return acknowledged.get();
  }

  /** Flushes, closes, and throws the first delivery failure, if any. */
  @Override
  public void close() {
    try {
      producer.flush();
    } finally {
      producer.close();
    }
    throwIfFailed();
  }

  private void send(ProducerRecord<String, byte[]> record, Callback callback) {
    throwIfFailed();
    try {
      producer.send(record, callback);
    } catch (KafkaException e) {
      throw new IllegalStateException(
          "kafka: cannot send to " + record.topic() + ": " + e.getMessage(), e);
    }
    sent.incrementAndGet();
  }

  private void throwIfFailed() {
    RuntimeException first = failure.get();
    if (first != null) {
      throw first;
    }
  }

  private final class Acknowledgement implements Callback {
    private final String topic;

    Acknowledgement(String topic) {
      this.topic = topic;
    }

    @Override
    public void onCompletion(@Nullable RecordMetadata metadata, @Nullable Exception exception) {
      if (exception == null) {
        acknowledged.incrementAndGet();
        return;
      }
      failure.compareAndSet(
          null,
          new IllegalStateException(
              "kafka: delivery to " + topic + " failed: " + exception.getMessage(), exception));
    }
  }
}
