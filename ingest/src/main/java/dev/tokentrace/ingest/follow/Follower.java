package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.ingest.kafka.CheckpointTopic;
import dev.tokentrace.ingest.kafka.KafkaProblems;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.kafka.KafkaUnavailableException;
import dev.tokentrace.ingest.kafka.TransactionalEventProducer;
import dev.tokentrace.ingest.tail.ParseCounts;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Rejection;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows log files into Kafka, exactly once (the service behind {@code tokentrace ship --follow}).
 * One thread reads every file as it grows ({@link FileSet}), parses it and sends the events into an
 * open Kafka transaction; every commit interval it adds its checkpoint, each file's position after
 * the last line whose events are all in the transaction, and commits. Kafka acknowledges the events
 * and the checkpoint together, so a shipper killed at any point restarts from a checkpoint that
 * matches exactly what the sink ({@code read_committed}) can see: no line is lost, none shipped
 * twice. This is Kafka Connect's file source model (track each line's offset, commit the offset of
 * what was acknowledged) made transactional, as Connect's exactly-once source support (KIP-618)
 * does.
 *
 * <p>When a transaction fails, it is aborted and every file is rewound to the committed checkpoint
 * and read again, the same path as a restart. When Kafka is unreachable, the commit waits (logging
 * that it does) and reading pauses, so at most {@link FollowSettings.Timing#maxPendingRecords()}
 * records are held.
 *
 * <p>{@link #run()} on one thread; {@link #stop()} and {@link #progress()} from any thread. Longer
 * than the house's 200 lines because connecting, the loop, committing and recovering share the
 * producer and the rewind rules; apart they would have to pass both around.
 */
public final class Follower {
  private static final Logger log = LoggerFactory.getLogger(Follower.class);

  /** Bytes read from one file before the others get their turn. */
  private static final long BUDGET_PER_FILE = 1 << 20;

  /**
   * How long a stopping shipper waits for an unreachable broker before it gives up: short, so that
   * SIGTERM ends the process within 5 s (what was not committed is shipped again on the next run).
   */
  private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(3);

  /**
   * How long {@code --once} waits for an unreachable cluster by default ({@code
   * --connect-timeout}).
   */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration ADMIN_CLOSE = Duration.ofSeconds(1);
  private static final Duration CHECKPOINT_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration RETRY_PAUSE = Duration.ofSeconds(2);
  private static final Duration RECOVERY_PAUSE = Duration.ofMillis(500);

  private final FollowSettings settings;
  private final KafkaSettings kafka;
  private final FileSet files;
  private final byte[] buffer = new byte[64 * 1024];
  private final Object wakeup = new Object();
  private volatile boolean stopRequested;
  private volatile long stopNanos;
  private volatile FollowProgress progress = FollowProgress.initial();
  private final Map<TopicPartition, Long> committedEnds = new ConcurrentHashMap<>();
  private @Nullable TransactionalEventProducer producer;
  private @Nullable Checkpoint resumeFrom;
  private long committedRecords;
  private long transactions;
  private long rewinds;
  private long lastProgress;
  private int failuresInARow;
  private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;

  /**
   * @param kafka brokers (set) and topics
   * @param parsers creates the parser for each file
   */
  public Follower(
      FollowSettings settings,
      KafkaSettings kafka,
      BiFunction<Engine, ParseSettings, LineParser> parsers) {
    this(settings, kafka, parsers, ClientFollowSettings.DEFAULTS, UnaryOperator.identity());
  }

  /**
   * @param clients how the client and gateway files among the followed ones (detected by content)
   *     become {@code client_timing} rows in {@code <prefix>.clients}
   */
  public Follower(
      FollowSettings settings,
      KafkaSettings kafka,
      BiFunction<Engine, ParseSettings, LineParser> parsers,
      ClientFollowSettings clients) {
    this(settings, kafka, parsers, clients, UnaryOperator.identity());
  }

  /**
   * @param shipping wraps the sink that sends released output into the transaction (tests inject
   *     failures there)
   */
  Follower(
      FollowSettings settings,
      KafkaSettings kafka,
      BiFunction<Engine, ParseSettings, LineParser> parsers,
      UnaryOperator<TailOutput> shipping) {
    this(settings, kafka, parsers, ClientFollowSettings.DEFAULTS, shipping);
  }

  private Follower(
      FollowSettings settings,
      KafkaSettings kafka,
      BiFunction<Engine, ParseSettings, LineParser> parsers,
      ClientFollowSettings clients,
      UnaryOperator<TailOutput> shipping) {
    this.settings = requireNonNull(settings, "settings is null");
    this.kafka = requireNonNull(kafka, "kafka is null");
    TailOutput downstream = shipping.apply(new Shipping());
    this.files = new FileSet(settings, new FollowContext(settings, parsers, downstream, clients));
  }

  /**
   * Follows until {@link #stop()} (or, with {@code once}, until the files' ends), then commits what
   * it shipped and returns.
   *
   * @throws IllegalStateException when another shipper with the same id fenced this one off, or the
   *     checkpoint cannot be read
   */
  public FollowSummary run() {
    long started = System.nanoTime();
    boolean uncommitted = false;
    boolean connected = false;
    try {
      // the files as they are now: a first run starts from them even when Kafka answers only
      // after a rotation (docs/follow.md#first-checkpoint)
      Checkpoint atStart = files.startingPoint(settings.shipperId());
      progress =
          new FollowProgress(
              System.nanoTime(), ParseCounts.ZERO, 0, 0, atStart.files().size(), 0, true, 0);
      if (connect()) {
        connected = true;
        boolean firstRun = resumeFrom == null;
        files.start(firstRun ? atStart : resumeFrom);
        resumeFrom = null;
        if (!firstRun || commitStart()) {
          follow();
        }
      }
    } catch (KafkaUnavailableException e) {
      if (!connected) {
        throw e; // nothing was read: the caller says the cluster is unreachable, and fails
      }
      uncommitted = true;
      log.warn(
          "{}; what was read since the last commit is shipped again from the checkpoint on the"
              + " next run",
          e.getMessage());
    } finally {
      files.close();
      if (producer != null) {
        producer.close();
      }
    }
    return new FollowSummary(
        files.size(),
        files.problems(),
        files.committedCounts(),
        committedRecords,
        transactions,
        rewinds,
        uncommitted,
        Duration.ofNanos(System.nanoTime() - started));
  }

  /**
   * With {@code once}: how long {@link #run()} waits for an unreachable cluster before it gives up
   * with a {@link KafkaUnavailableException} (cron jobs must not pile up). A following shipper (a
   * service) waits on, saying so.
   */
  public Follower connectTimeout(Duration timeout) {
    this.connectTimeout = requireNonNull(timeout, "timeout is null");
    return this;
  }

  /** Ends {@link #run()} after a last commit. Thread-safe; returns at once. */
  public void stop() {
    if (!stopRequested) {
      stopNanos = System.nanoTime();
      stopRequested = true;
    }
    synchronized (wakeup) {
      wakeup.notifyAll();
    }
  }

  /**
   * For every partition this follower's committed transactions wrote to: the offset after its last
   * record. A sink that drains until it reached them holds everything shipped (see {@link
   * dev.tokentrace.ingest.sink.KafkaToDuckDb#stopWhenCaughtUp(Map)}). Thread-safe.
   */
  public Map<TopicPartition, Long> committedEnds() {
    return Map.copyOf(committedEnds);
  }

  /** What was done so far. Thread-safe. */
  public FollowProgress progress() {
    return progress;
  }

  /**
   * Creates the topics, registers the producer and reads the checkpoint into {@link #resumeFrom},
   * retrying while Kafka is unreachable; false when stopped meanwhile.
   */
  private boolean connect() {
    long started = System.nanoTime();
    // each attempt is short, so that a stop request is seen between attempts (SIGTERM within 5 s)
    Duration adminTimeout = min(ATTEMPT_TIMEOUT, connectTimeout);
    while (!stopRequested) {
      try {
        Admin admin = Admin.create(kafka.adminProperties());
        try {
          kafka.topics().ensureExist(admin, kafka.partitions(), adminTimeout);
          kafka.topics().ensureCheckpointsExist(admin, adminTimeout);
        } finally {
          // bounded: a plain close waits for the calls an unreachable cluster never answers
          admin.close(ADMIN_CLOSE);
        }
        producer = newProducer();
        Optional<byte[]> value =
            CheckpointTopic.latest(kafka, settings.shipperId(), CHECKPOINT_TIMEOUT);
        Optional<Checkpoint> checkpoint =
            value.map(json -> Checkpoint.fromJson(settings.shipperId(), json));
        log.info(
            "ship: connected in {} ms; shipper '{}' {}",
            Duration.ofNanos(System.nanoTime() - started).toMillis(),
            settings.shipperId(),
            checkpoint.isPresent()
                ? "resumes from its checkpoint (" + checkpoint.get().files().size() + " files)"
                : "has no checkpoint yet (first run)");
        resumeFrom = checkpoint.orElse(null);
        return true;
      } catch (KafkaUnavailableException e) {
        throw e;
      } catch (RuntimeException e) {
        rethrowIfFenced(e);
        IllegalArgumentException config = KafkaProblems.configError(e, kafka.adminProperties());
        if (config != null) {
          throw config;
        }
        Duration waited = Duration.ofNanos(System.nanoTime() - started);
        if (settings.once() && waited.compareTo(connectTimeout) >= 0) {
          throw KafkaProblems.unreachable(
              String.valueOf(kafka.bootstrapServers()),
              waited,
              "--connect-timeout " + connectTimeout.toSeconds() + "s",
              e);
        }
        log.warn(
            "kafka: the cluster at {} is unreachable so far ({} s): {}; retrying",
            kafka.bootstrapServers(),
            waited.toSeconds(),
            describe(e));
        pause(RETRY_PAUSE);
      }
    }
    return false;
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private TransactionalEventProducer newProducer() {
    return TransactionalEventProducer.open(kafka, settings.transactionalId(), this::givingUp);
  }

  private boolean givingUp() {
    return stopRequested && System.nanoTime() - stopNanos > SHUTDOWN_GRACE.toNanos();
  }

  private void follow() {
    FollowSettings.Timing timing = settings.timing();
    long lastCommit = System.nanoTime();
    long lastScan = lastCommit;
    while (!stopRequested) {
      long now = System.nanoTime();
      if (now - lastScan >= timing.rescan().toNanos()) {
        files.rescan();
        lastScan = now;
      }
      long read = readFiles();
      files.finishRotated(settings.once() ? 0 : timing.rotatedGrace().toNanos());
      if (commitDue(lastCommit)) {
        commit();
        lastCommit = System.nanoTime();
      }
      updateProgress(false);
      if (settings.once() && read == 0) {
        endOnce();
        return;
      }
      // Read on at once only while a file is behind; otherwise wait a poll interval, so that a
      // steady trickle of lines is read in batches instead of one busy loop per line.
      if (!files.backlog()) {
        pause(timing.poll());
      }
    }
    log.info("ship: stopping: committing what was shipped");
    commit();
  }

  /**
   * A shipper's first run commits its starting checkpoint (every file at the position it starts
   * from) before it reads a line, retrying until Kafka takes it: a shipper killed before its first
   * commit of lines then resumes from it, and a file rotated away meanwhile is found among the
   * generations and read from there, instead of the next run starting over on the new file alone
   * (docs/follow.md#first-checkpoint). False when stopped first.
   */
  private boolean commitStart() {
    while (!stopRequested) {
      TransactionalEventProducer current = requireNonNull(producer, "producer");
      try {
        current.commit(settings.shipperId(), files.checkpoint(settings.shipperId()).toJson());
      } catch (KafkaUnavailableException e) {
        throw e;
      } catch (RuntimeException e) {
        recover(e);
        continue;
      }
      current.committedEnds().forEach((tp, end) -> committedEnds.merge(tp, end, Math::max));
      files.committed();
      transactions++;
      failuresInARow = 0;
      log.info("ship: first run: starting checkpoint committed ({} files)", files.size());
      return true;
    }
    return false;
  }

  private long readFiles() {
    TransactionalEventProducer current = requireNonNull(producer, "producer");
    int maxPending = settings.timing().maxPendingRecords();
    try {
      return files.poll(buffer, BUDGET_PER_FILE, () -> current.pending() >= maxPending);
    } catch (RuntimeException e) {
      recover(e);
      return 0;
    }
  }

  private boolean commitDue(long lastCommit) {
    TransactionalEventProducer current = requireNonNull(producer, "producer");
    if (current.pending() >= settings.timing().maxPendingRecords() || current.failure() != null) {
      return true;
    }
    boolean interval = System.nanoTime() - lastCommit >= settings.timing().commit().toNanos();
    return interval && (current.pending() > 0 || files.dirty());
  }

  private void endOnce() {
    files.decideHeads();
    files.finishRotated(0);
    commit();
    log.info("ship: --once: every file read to its end");
  }

  private void commit() {
    TransactionalEventProducer current = requireNonNull(producer, "producer");
    if (current.pending() == 0 && !files.dirty()) {
      return;
    }
    long records = current.pending();
    Checkpoint checkpoint = files.checkpoint(settings.shipperId());
    long started = System.nanoTime();
    try {
      current.commit(settings.shipperId(), checkpoint.toJson());
      log.debug(
          "kafka: committed {} records in {} ms",
          records,
          Duration.ofNanos(System.nanoTime() - started).toMillis());
    } catch (KafkaUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      recover(e);
      return;
    }
    current.committedEnds().forEach((tp, end) -> committedEnds.merge(tp, end, Math::max));
    files.committed();
    committedRecords += records;
    transactions++;
    failuresInARow = 0;
  }

  /** A failed transaction: abort it (or replace a broken producer) and rewind every file. */
  private void recover(RuntimeException failure) {
    rethrowIfFenced(failure);
    if (failure instanceof KafkaUnavailableException) {
      throw failure;
    }
    if (failure instanceof KafkaException) {
      log.warn(
          "kafka: a transaction failed ({}); it is aborted and every file is read again from the"
              + " last checkpoint",
          describe(failure));
    } else {
      // Not Kafka's: a bug here. The same recovery keeps the data exact; the trace says where.
      log.error(
          "ship: unexpected failure; the transaction is aborted and every file is read again from"
              + " the last checkpoint",
          failure);
    }
    TransactionalEventProducer current = requireNonNull(producer, "producer");
    try {
      current.abort();
    } catch (KafkaUnavailableException e) {
      throw e;
    } catch (RuntimeException e) {
      rethrowIfFenced(e);
      log.warn("kafka: the producer cannot go on ({}); starting a new one", describe(e));
      current.close();
      producer = null;
      producer = newProducer();
    }
    files.rewind();
    rewinds++;
    // The same failure again (a record Kafka refuses) must not spin: back off up to 30 s.
    failuresInARow++;
    pause(RECOVERY_PAUSE.multipliedBy(1L << Math.min(failuresInARow - 1, 6)));
  }

  private void rethrowIfFenced(RuntimeException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ProducerFencedException) {
        throw new IllegalStateException(
            "kafka: another shipper with --shipper-id '"
                + settings.shipperId()
                + "' started and took over; this one stops (give each shipper its own id)",
            e);
      }
    }
  }

  private void updateProgress(boolean force) {
    long now = System.nanoTime();
    if (!force && now - lastProgress < Duration.ofMillis(100).toNanos()) {
      return;
    }
    lastProgress = now;
    TransactionalEventProducer current = producer;
    progress =
        new FollowProgress(
            now,
            files.counts(),
            committedRecords,
            files.lag(),
            files.size(),
            files.problems().size(),
            current != null && current.waiting(),
            rewinds);
  }

  private void pause(Duration duration) {
    synchronized (wakeup) {
      if (stopRequested) {
        return;
      }
      try {
        wakeup.wait(Math.max(1, duration.toMillis()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        stop();
      }
    }
  }

  private static String describe(Throwable e) {
    StringBuilder text = new StringBuilder(e.getMessage() == null ? e.toString() : e.getMessage());
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && text.indexOf(cause.getMessage()) < 0) {
        text.append(": ").append(cause.getMessage());
      }
    }
    return text.toString();
  }

  /** Takes what the files release and sends it into the current transaction. */
  private final class Shipping implements TailOutput {
    @Override
    public void event(EngineEvent event) {
      requireNonNull(producer, "producer").event(event);
    }

    @Override
    public void rejected(Rejection rejection, byte[] rawLine) {
      requireNonNull(producer, "producer").rejected(rejection, rawLine);
    }

    @Override
    public void client(ClientTiming.Stored row) {
      requireNonNull(producer, "producer").client(row);
    }

    @Override
    public void clientRejected(ClientRejection rejection, byte[] rawLine) {
      requireNonNull(producer, "producer").clientRejected(rejection, rawLine);
    }
  }
}
