package dev.tokentrace.ingest.kafka;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.Rejection;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
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

  private EventProducer(Producer<String, byte[]> producer, Topics topics) {
    this.producer = producer;
    this.topics = topics;
    this.eventsCallback = new Acknowledgement(topics.events());
    this.rejectsCallback = new Acknowledgement(topics.rejects());
  }

  /** Connects to {@code settings.bootstrapServers()} (must be set). */
  public static EventProducer open(KafkaSettings settings) {
    requireNonNull(settings, "settings is null");
    return new EventProducer(new KafkaProducer<>(settings.producerProperties()), settings.topics());
  }

  @Override
  public void event(EngineEvent event) {
    send(EventRecords.event(topics, event), eventsCallback);
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
