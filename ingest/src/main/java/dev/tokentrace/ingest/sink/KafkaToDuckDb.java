package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.kafka.KafkaProblems;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.kafka.KafkaUnavailableException;
import dev.tokentrace.ingest.kafka.Topics;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.table.TableSchema;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumes {@code <prefix>.events} and {@code <prefix>.rejects} into a DuckDB file, exactly once:
 * each transaction first upserts the partitions' next offsets into {@code kafka_offsets} (the
 * statement that opens it), then appends the rows of one or more polls with one Appender per table,
 * upserts the offsets reached, closes the Appenders (flushing inside the transaction) and commits
 * (docs/design.md#appender-and-transactions). A transaction ends with the first poll that is not
 * full or leaves nothing behind (live tailing: one poll, one commit, as fresh as before), else
 * after {@value #TRANSACTION_POLLS} polls or {@link #TRANSACTION_TIME}: working off a backlog,
 * fewer and larger commits cost less (BENCHMARKS.md, "Ingest end to end"). On startup the consumer
 * is assigned every partition and seeks to the offsets in DuckDB, so no consumer group is involved.
 * A failed batch is rolled back, the consumer re-seeks to the committed offsets, and the failure is
 * thrown; the sink can run again from there.
 *
 * <p>Memory is bounded by one poll ({@code max.poll.records}, {@link
 * KafkaSettings#DEFAULT_MAX_POLL_RECORDS}) and DuckDB's {@code memory_limit}.
 *
 * <p>Runs on one thread ({@link #runUntilCaughtUp()} or {@link #runUntilStopped()}, then {@link
 * #close()}); {@link #stop()} and {@link #stopWhenCaughtUp()} may be called from any thread.
 */
public final class KafkaToDuckDb implements LiveSink {
  private static final Logger log = LoggerFactory.getLogger(KafkaToDuckDb.class);

  /**
   * How long describing the topics at startup and the consumer's metadata calls may take unless the
   * caller says ({@code --connect-timeout}; Kafka's own API timeout is 60 s).
   */
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Full polls after which a transaction is committed while records are still behind. Each commit
   * costs two offsets upserts, Appender set-up and flush, and DuckDB's commit (a JFR profile of the
   * sink put a third of its time there with one transaction per 5,000-record poll); per 1 M events
   * the sink took 24-25 s of CPU that way and 18-22 s with transactions of 30-50 k records
   * (BENCHMARKS.md, "Ingest end to end"). Counted in polls, not records, so a sink configured with
   * small polls still commits in small steps; the rows wait in DuckDB, the heap holds one poll.
   */
  static final int TRANSACTION_POLLS = 10;

  /**
   * The longest a transaction stays open while polls keep coming back full: how late rows of a
   * backlog become visible; live tailing commits every poll.
   */
  static final Duration TRANSACTION_TIME = Duration.ofSeconds(2);

  private final SinkDatabase database;
  private final Consumer<String, byte[]> consumer;
  private final TopicLayout layout;
  private final SinkSettings settings;
  private final Clock clock;
  private final RecordWriter writer;
  private final Map<TableSchema<?>, Long> written = new LinkedHashMap<>();
  private final SinkLoop loop;
  private final int maxPollRecords;
  private final Map<TableSchema<?>, Long> pending = new IdentityHashMap<>();
  private final Map<TopicPartition, Long> pendingOffsets = new HashMap<>();
  private @Nullable Appenders appenders;
  private int pendingRecords;
  private int pendingPolls;
  private long transactionStarted;
  private int transactionPolls = TRANSACTION_POLLS;
  private BatchHook hook = BatchHook.NONE;
  private long undecodable;
  private long lag = -1;
  private Drain drain;

  private KafkaToDuckDb(
      SinkDatabase database,
      Consumer<String, byte[]> consumer,
      TopicLayout layout,
      Topics topics,
      SinkSettings settings,
      Clock clock,
      int maxPollRecords) {
    this.database = database;
    this.consumer = consumer;
    this.layout = layout;
    this.settings = settings;
    this.clock = clock;
    this.writer = new RecordWriter(topics);
    this.maxPollRecords = maxPollRecords;
    this.drain = new Drain(settings.stallTimeout());
    this.loop = new SinkLoop("duckdb sink", consumer, settings.pollTimeout(), new Target());
  }

  /**
   * Opens (or creates) the DuckDB file with the schema, connects to Kafka, assigns every partition
   * of both topics and seeks to the offsets stored in the file.
   *
   * @param clock stamps {@code rejects.ingested_ts}
   * @throws IllegalStateException when the file cannot be opened (e.g. another process writes it),
   *     the schema does not match, or a topic does not exist
   */
  public static KafkaToDuckDb open(SinkSettings settings, KafkaSettings kafka, Clock clock) {
    return open(settings, kafka, clock, METADATA_TIMEOUT);
  }

  /**
   * Like {@link #open(SinkSettings, KafkaSettings, Clock)}; describing the topics and each of the
   * consumer's metadata calls (end offsets, positions) give up after {@code connectTimeout} with a
   * {@link KafkaUnavailableException} naming the servers ({@code --connect-timeout}).
   */
  public static KafkaToDuckDb open(
      SinkSettings settings, KafkaSettings kafka, Clock clock, Duration connectTimeout) {
    requireNonNull(settings, "settings is null");
    requireNonNull(kafka, "kafka is null");
    requireNonNull(clock, "clock is null");
    requireNonNull(connectTimeout, "connectTimeout is null");
    TopicLayout layout;
    try {
      layout = TopicLayout.describe(kafka, connectTimeout);
    } catch (RuntimeException e) {
      throw unreachableIfTimedOut(e, kafka, connectTimeout);
    }
    SinkDatabase database = SinkDatabase.open(settings);
    Consumer<String, byte[]> consumer = null;
    try {
      Map<String, Object> properties = kafka.consumerProperties();
      // a value the user configured (--kafka-config) wins
      properties.putIfAbsent(
          ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) connectTimeout.toMillis());
      consumer = new KafkaConsumer<>(properties);
      consumer.assign(layout.partitions());
      int maxPollRecords =
          Integer.parseInt(properties.get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG).toString());
      KafkaToDuckDb sink =
          new KafkaToDuckDb(
              database, consumer, layout, kafka.topics(), settings, clock, maxPollRecords);
      sink.seekToCommitted();
      return sink;
    } catch (SQLException e) {
      IllegalStateException failure = failure(database, "cannot read kafka_offsets", e);
      closeQuietly(consumer, database, failure);
      throw failure;
    } catch (RuntimeException e) {
      closeQuietly(consumer, database, e);
      throw unreachableIfTimedOut(e, kafka, connectTimeout);
    }
  }

  /**
   * {@code failure} as one line naming the servers when it is Kafka timing out, else as it is.
   * Public for the callers that run the sink: a consumer call during the run can time out too.
   */
  public static RuntimeException unreachableIfTimedOut(
      RuntimeException failure, KafkaSettings kafka, Duration waited) {
    if (failure instanceof KafkaUnavailableException || !KafkaProblems.timedOut(failure)) {
      return failure;
    }
    return KafkaProblems.unreachable(
        String.valueOf(kafka.bootstrapServers()),
        waited,
        "--connect-timeout",
        "what was committed before is in the DuckDB file",
        failure);
  }

  /**
   * Consumes until every partition reaches the end offset it has now (batch mode); returns what
   * this run wrote.
   */
  public SinkSummary runUntilCaughtUp() {
    return loop.runUntilCaughtUp(database.path());
  }

  /**
   * Consumes until {@link #stop()} (returns after the current batch) or {@link #stopWhenCaughtUp()}
   * (returns once the end offsets as of that call are reached): follow mode. Returns what this run
   * wrote.
   */
  @Override
  public SinkSummary runUntilStopped() {
    return loop.run(database.path());
  }

  /** Ends the run after the batch being written, if any. Thread-safe. */
  @Override
  public void stop() {
    loop.stop();
  }

  /**
   * Ends the run once it has consumed everything in the topics at the time of this call, e.g. after
   * the producer of the same process has flushed. Thread-safe.
   */
  public void stopWhenCaughtUp() {
    stopWhenCaughtUp(Map.of());
  }

  /**
   * Like {@link #stopWhenCaughtUp()}, but the run also goes on until every partition's position
   * reached {@code atLeast}: the ends of the transactions a shipper committed. A transaction's
   * commit returns before its markers are written to the partitions, and until they are, a {@code
   * read_committed} consumer's end offsets stop before its records: a drain that trusted them alone
   * could end without the last transaction. Partitions of other topics are ignored. Thread-safe.
   */
  @Override
  public void stopWhenCaughtUp(Map<TopicPartition, Long> atLeast) {
    Map<TopicPartition, Long> mine = new HashMap<>();
    for (TopicPartition partition : layout.partitions()) {
      Long end = atLeast.get(partition);
      if (end != null) {
        mine.put(partition, end);
      }
    }
    loop.stopWhenCaughtUp(mine);
  }

  /** Closes the consumer and the DuckDB file. Call from the thread that ran the sink. */
  @Override
  public void close() {
    RuntimeException failure =
        new IllegalStateException("duckdb " + database.path() + ": closing the sink failed");
    closeQuietly(consumer, database, failure);
    if (failure.getSuppressed().length > 0) {
      throw failure;
    }
  }

  /** Rows and batches committed since the sink was opened, and the consumer lag. Thread-safe. */
  @Override
  public SinkProgress progress() {
    return loop.progress();
  }

  /**
   * Another connection to the sink's database, for readers in this process: DuckDB lets one process
   * write a file, and a connection of that process sees each batch once it committed (what {@code
   * bench/} measures freshness with). Close it before the sink.
   */
  public DuckDBConnection readerConnection() throws SQLException {
    return database.duplicate();
  }

  @Override
  public String target() {
    return database.path().toString();
  }

  /** Test hook: runs around each commit (see {@link BatchHook}). */
  void hook(BatchHook hook) {
    this.hook = requireNonNull(hook, "hook is null");
  }

  /** Test hook: full polls after which a transaction commits (1: one per transaction). */
  void transactionPolls(int polls) {
    this.transactionPolls = polls;
  }

  /** Test access: another connection to the same database, with its own transactions. */
  DuckDBConnection duplicateConnection() throws SQLException {
    return readerConnection();
  }

  /** The DuckDB file as the consume loop's target: one transaction spans one or more polls. */
  private final class Target implements SinkLoop.Target {
    @Override
    public void runStarts(long startedNanos) {
      resetCounts();
      drain = new Drain(settings.stallTimeout());
    }

    @Override
    public boolean caughtUp(Map<TopicPartition, Long> atLeast, boolean lastPollEmpty) {
      return drain.caughtUp(consumer, layout.partitions(), atLeast);
    }

    @Override
    public void append(ConsumerRecords<String, byte[]> records) {
      KafkaToDuckDb.this.append(records);
      drain.progressed();
    }

    @Override
    public Collection<TopicPartition> lagPartitions() {
      return layout.partitions();
    }

    @Override
    public void afterPoll(int polled, long lag) {
      KafkaToDuckDb.this.lag = lag;
      if (transactionEnds(polled)) {
        commit();
      }
    }

    @Override
    public void finish() {
      commit();
    }

    @Override
    public void failed() {
      // a failed batch was rolled back where it failed (rollBack)
    }

    @Override
    public SinkSummary summary(Duration elapsed, long batches) {
      return KafkaToDuckDb.this.summary(elapsed, batches);
    }
  }

  /** Appends one poll's rows, opening a transaction first if none is open. */
  private void append(ConsumerRecords<String, byte[]> records) {
    try {
      if (appenders == null) {
        // first statement: opens the transaction the Appenders write into
        // (docs/design.md#appender-and-transactions)
        database.storeOffsets(nextOffsets(records), layout);
        appenders = database.appenders();
        transactionStarted = System.nanoTime();
      }
      Instant ingested = clock.instant();
      for (ConsumerRecord<String, byte[]> record : records) {
        pending.merge(writer.write(record, appenders, ingested), 1L, Long::sum);
      }
      pendingOffsets.putAll(nextOffsets(records));
      pendingRecords += records.count();
      pendingPolls++;
    } catch (SQLException | RuntimeException e) {
      throw rollBack(e);
    }
  }

  /**
   * Whether the open transaction ends after a poll of {@code polled} records: when the poll was not
   * full or nothing is left behind (live: commit at once), or the transaction is big or old.
   */
  private boolean transactionEnds(int polled) {
    return appenders != null
        && (polled < maxPollRecords
            || lag <= 0
            || pendingPolls >= transactionPolls
            || System.nanoTime() - transactionStarted >= TRANSACTION_TIME.toNanos());
  }

  /** Stores the offsets reached, flushes the Appenders into the transaction and commits it. */
  private void commit() {
    Appenders open = appenders;
    if (open == null) {
      return;
    }
    try {
      database.storeOffsets(pendingOffsets, layout);
      appenders = null;
      open.close(); // flushes every Appender into the still open transaction
      hook.beforeCommit(loop.batches() + 1);
      database.commit();
    } catch (SQLException | RuntimeException e) {
      throw rollBack(e);
    }
    loop.committed(pendingRecords);
    pending.forEach((table, rows) -> written.merge(table, rows, Long::sum));
    undecodable += writer.takeUndecodable();
    log.debug("duckdb sink: batch {} committed, {} records", loop.batches(), pendingRecords);
    clearPending();
    hook.afterCommit(loop.batches());
  }

  private IllegalStateException rollBack(Exception cause) {
    IllegalStateException failure =
        failure(
            database,
            "a batch of " + pendingRecords + " records failed and was rolled back",
            cause);
    writer.takeUndecodable();
    Appenders open = appenders;
    appenders = null;
    clearPending();
    try {
      if (open != null) {
        open.close(); // before the rollback: closed after it, they would flush in auto-commit
      }
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
    try {
      database.rollback();
      seekToCommitted();
    } catch (SQLException | RuntimeException e) {
      failure.addSuppressed(e);
    }
    return failure;
  }

  private void clearPending() {
    pending.clear();
    pendingOffsets.clear();
    pendingRecords = 0;
    pendingPolls = 0;
  }

  private static Map<TopicPartition, Long> nextOffsets(ConsumerRecords<String, byte[]> records) {
    Map<TopicPartition, Long> next = new HashMap<>();
    for (TopicPartition partition : records.partitions()) {
      List<ConsumerRecord<String, byte[]>> inPartition = records.records(partition);
      next.put(partition, inPartition.get(inPartition.size() - 1).offset() + 1);
    }
    return next;
  }

  /** Seeks every partition to its offset in {@code kafka_offsets}, or to its beginning. */
  private void seekToCommitted() throws SQLException {
    Map<TopicPartition, Long> committed = database.committedOffsets(layout);
    for (TopicPartition partition : layout.partitions()) {
      Long offset = committed.get(partition);
      if (offset == null) {
        consumer.seekToBeginning(List.of(partition));
      } else {
        consumer.seek(partition, offset);
      }
    }
  }

  private void resetCounts() {
    for (TableSchema<?> table : SinkTables.ALL) {
      written.put(table, 0L);
    }
    undecodable = 0;
  }

  private SinkSummary summary(Duration elapsed, long batches) {
    Map<String, Long> events = new LinkedHashMap<>();
    for (Map.Entry<TableSchema<?>, Long> entry : written.entrySet()) {
      if (SinkTables.isEventTable(entry.getKey())) {
        events.put(entry.getKey().name(), entry.getValue());
      }
    }
    return new SinkSummary(events, written.get(RejectRow.TABLE), undecodable, batches, elapsed);
  }

  private static IllegalStateException failure(SinkDatabase database, String what, Exception e) {
    return new IllegalStateException(
        "duckdb " + database.path() + ": " + what + ": " + e.getMessage(), e);
  }

  private static void closeQuietly(
      @Nullable Consumer<String, byte[]> consumer, SinkDatabase database, Exception failure) {
    if (consumer != null) {
      try {
        consumer.close();
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
    try {
      database.close();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }
}
