package dev.tokentrace.ingest.kafka;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The follow-mode shipper's producer: events and rejections are sent inside a Kafka transaction
 * that is begun with the first record and ends with {@link #commit}, which adds the shipper's
 * checkpoint record to the same transaction. The sink reads {@code read_committed}, so a line's
 * events and the checkpoint that moves past the line become visible together or not at all: a crash
 * at any point neither loses nor duplicates an event (KIP-618, exactly-once source connectors, does
 * the same with Kafka Connect's offsets).
 *
 * <p>Waiting: while the broker is unreachable, Kafka's calls give up after {@code max.block.ms};
 * this class then logs that it is waiting (at most every {@value #WAIT_LOG_SECONDS} s) and tries
 * again, in place, until {@code giveUp} says to stop. Memory stays bounded because the shipper
 * stops reading while it waits here. Other failures are thrown as Kafka reports them: the shipper
 * then aborts (or, when the producer itself is broken, replaces it) and rewinds to its checkpoint.
 *
 * <p>Not thread-safe: one shipping thread.
 */
public final class TransactionalEventProducer implements TailOutput, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TransactionalEventProducer.class);

  static final int WAIT_LOG_SECONDS = 10;

  private final Producer<String, byte[]> producer;
  private final Topics topics;
  private final String bootstrapServers;
  private final BooleanSupplier giveUp;
  private final AtomicLong acknowledged = new AtomicLong();
  private final Callback callback = new Acknowledgement();
  private final Map<TopicPartition, Long> transactionEnds = new ConcurrentHashMap<>();
  private final Map<TopicPartition, Long> committedEnds = new ConcurrentHashMap<>();
  private boolean inTransaction;
  private long sent;
  private long pending;
  private long waitingSince;
  private long lastWaitLog;
  private volatile boolean waiting;
  private volatile @Nullable Exception failure;

  private TransactionalEventProducer(
      Producer<String, byte[]> producer, KafkaSettings settings, BooleanSupplier giveUp) {
    this.producer = producer;
    this.topics = settings.topics();
    this.bootstrapServers = String.valueOf(settings.bootstrapServers());
    this.giveUp = giveUp;
  }

  /**
   * Creates the producer and registers its transactional id with the coordinator, which aborts a
   * transaction its predecessor (a killed shipper with the same id) left open and fences that
   * predecessor off. Waits while the broker is unreachable.
   *
   * @param giveUp polled while waiting; true ends the wait with a {@link KafkaUnavailableException}
   */
  public static TransactionalEventProducer open(
      KafkaSettings settings, String transactionalId, BooleanSupplier giveUp) {
    requireNonNull(settings, "settings is null");
    requireNonNull(giveUp, "giveUp is null");
    Producer<String, byte[]> producer =
        new KafkaProducer<>(settings.transactionalProducerProperties(transactionalId));
    TransactionalEventProducer shipping =
        new TransactionalEventProducer(producer, settings, giveUp);
    try {
      shipping.retrying("register transactional id " + transactionalId, producer::initTransactions);
      return shipping;
    } catch (RuntimeException e) {
      producer.close(Duration.ZERO);
      throw e;
    }
  }

  @Override
  public void event(EngineEvent event) {
    send(EventRecords.event(topics, event));
  }

  @Override
  public void rejected(Rejection rejection, byte[] rawLine) {
    send(EventRecords.rejected(topics, rejection, rawLine));
  }

  @Override
  public void client(ClientTiming.Stored row) {
    send(EventRecords.client(topics, row));
  }

  @Override
  public void clientRejected(ClientRejection rejection, byte[] rawLine) {
    send(EventRecords.clientRejected(topics, rejection, rawLine));
  }

  /**
   * Adds {@code checkpoint} (keyed by {@code shipperId}) to the transaction and commits it; returns
   * when Kafka acknowledged every record of it. Begins a transaction first when none is open, so a
   * checkpoint that moved past ignored lines alone is committed too.
   */
  public void commit(String shipperId, byte[] checkpoint) {
    Exception failed = failure;
    if (failed != null) {
      throw new KafkaException(
          "a record of the transaction failed: " + failed.getMessage(), failed);
    }
    send(new ProducerRecord<>(topics.checkpoints(), shipperId, checkpoint));
    retrying("commit a transaction of " + pending + " records", producer::commitTransaction);
    // commitTransaction returned, so every record of it was acknowledged and its offsets are known
    transactionEnds.forEach((partition, end) -> committedEnds.merge(partition, end, Math::max));
    ended();
  }

  /**
   * For every partition this producer wrote to in committed transactions: the offset after its last
   * record. A {@code read_committed} reader whose position reached these offsets has seen every
   * committed record, even when it asked for the end offsets before the commit markers were written
   * (any thread).
   */
  public Map<TopicPartition, Long> committedEnds() {
    return Map.copyOf(new HashMap<>(committedEnds));
  }

  /** Aborts the open transaction, if any: its records are never seen by the sink. */
  public void abort() {
    if (inTransaction) {
      retrying("abort a transaction", producer::abortTransaction);
    }
    ended();
  }

  private void ended() {
    transactionEnds.clear();
    inTransaction = false;
    pending = 0;
    failure = null;
  }

  /** Records in the open transaction (0 when none is open). */
  public long pending() {
    return pending;
  }

  /** Records sent by this producer, checkpoints included. */
  public long sent() {
    return sent;
  }

  /** Records Kafka acknowledged so far (any thread). */
  public long acknowledged() {
    return acknowledged.get();
  }

  /** The first record failure of the open transaction, if any: its commit will fail. */
  public @Nullable Exception failure() {
    return failure;
  }

  /** True while a call waits for an unreachable broker (any thread). */
  public boolean waiting() {
    return waiting;
  }

  /** Closes without waiting: an open transaction is left for the coordinator to abort. */
  @Override
  public void close() {
    producer.close(Duration.ZERO);
  }

  private void send(ProducerRecord<String, byte[]> record) {
    if (failure != null) {
      // The transaction is lost already: its commit fails and the shipper rewinds to the
      // checkpoint, so the records after a failure need not be sent. Sending them would cost the
      // most when the broker is gone: each send waits max.block.ms for metadata before failing,
      // which held the shipper for minutes, silently, before it reached the commit that says so.
      return;
    }
    boolean first = !inTransaction;
    if (first) {
      producer.beginTransaction();
      inTransaction = true;
    }
    // A send that cannot complete (metadata unknown or buffer full for max.block.ms, broker
    // errors) fails the record and makes the transaction abortable: the commit then throws and the
    // shipper rewinds. The shipper commits after a bounded number of records, so it is the commit,
    // not the send, that waits for an unreachable broker.
    Future<RecordMetadata> sending = producer.send(record, callback);
    sent++;
    pending++;
    if (first) {
      awaitFirst(sending);
    }
  }

  /**
   * Waits for the first record of a transaction. With Kafka 4's transactions (KIP-890 v2) a
   * partition joins the transaction with its first batch, and right after a commit that batch is
   * refused with {@code CONCURRENT_TRANSACTIONS} until the commit's markers are written. Batches
   * already in flight behind it then arrive first and are refused as {@code
   * OUT_OF_ORDER_SEQUENCE_NUMBER} (KAFKA-18202), and their retries stalled shipping for up to 2 s
   * on Kafka 4.4.0. Once the first record is in, the transaction is open on the broker and the
   * others join it in order. Costs one round trip per transaction.
   */
  private void awaitFirst(Future<RecordMetadata> sending) {
    retrying(
        "accept the first record of a transaction",
        () -> {
          try {
            sending.get(KafkaSettings.DEFAULT_MAX_BLOCK_MS, TimeUnit.MILLISECONDS);
          } catch (java.util.concurrent.TimeoutException e) {
            throw new TimeoutException(
                "no answer within " + KafkaSettings.DEFAULT_MAX_BLOCK_MS + " ms", e);
          } catch (ExecutionException e) {
            // The commit will fail with it and the shipper rewind; nothing to wait for here.
            log.debug("kafka: first record of a transaction failed: {}", e.getCause().toString());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaUnavailableException("kafka: interrupted while sending", e);
          }
        });
  }

  private void retrying(String what, Runnable call) {
    while (true) {
      try {
        call.run();
        if (waiting) {
          log.info("kafka: {} reachable again; shipping resumes", bootstrapServers);
          waiting = false;
        }
        return;
      } catch (TimeoutException e) {
        waited(what, e);
      }
    }
  }

  private void waited(String what, TimeoutException e) {
    long now = System.nanoTime();
    if (!waiting) {
      waiting = true;
      waitingSince = now;
      lastWaitLog = now - Duration.ofSeconds(WAIT_LOG_SECONDS).toNanos();
    }
    long seconds = Duration.ofNanos(now - waitingSince).toSeconds();
    if (giveUp.getAsBoolean()) {
      throw new KafkaUnavailableException(
          "kafka: gave up waiting for "
              + bootstrapServers
              + " to "
              + what
              + " after "
              + seconds
              + " s",
          e);
    }
    if (now - lastWaitLog >= Duration.ofSeconds(WAIT_LOG_SECONDS).toNanos()) {
      lastWaitLog = now;
      log.warn(
          "kafka: waiting for {} to {} ({} s so far, {} records not yet acknowledged); reading is"
              + " paused, nothing is lost: {}",
          bootstrapServers,
          what,
          seconds,
          sent - acknowledged.get(),
          e.getMessage());
    }
  }

  private final class Acknowledgement implements Callback {
    @Override
    public void onCompletion(@Nullable RecordMetadata metadata, @Nullable Exception exception) {
      // A failed record fails its transaction's commit, which the shipper handles; the first
      // failure is kept so that the shipper can commit (and fail, and rewind) early.
      if (exception == null) {
        acknowledged.incrementAndGet();
        if (metadata != null && metadata.hasOffset()) {
          transactionEnds.merge(
              new TopicPartition(metadata.topic(), metadata.partition()),
              metadata.offset() + 1,
              Math::max);
        }
      } else if (failure == null) {
        failure = exception;
      }
    }
  }
}
