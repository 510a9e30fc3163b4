package dev.tokentrace.ingest.sink;

import static dev.tokentrace.ingest.sink.KafkaToDuckDbIT.CLOCK;
import static dev.tokentrace.ingest.sink.KafkaToDuckDbIT.TIMEOUT;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.EventProducer;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.kafka.RejectHeaders;
import dev.tokentrace.parse.Rejection;
import dev.tokentrace.table.TableSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once across sink restarts and failed batches: the rows in DuckDB, compared as sets of
 * (table, source_path, source_line) with no duplicates, are exactly the records below the offsets
 * stored in the same file.
 */
final class SinkRestartIT {
  /** Small polls, so a few hundred records make many batches (transactions). */
  private static final Map<String, String> SMALL_POLLS = Map.of("consumer.max.poll.records", "50");

  private static EmbeddedBroker broker;

  @TempDir Path dir;

  @BeforeAll
  static void startBroker() {
    broker = EmbeddedBroker.start();
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  @Test
  void restartedSinkResumesWhereTheStoppedOneCommittedAndWritesEveryRowOnce() throws Exception {
    KafkaSettings kafka = KafkaToDuckDbIT.createTopics(broker, "restart", SMALL_POLLS);
    produce(kafka, "logs/first.log", 700, 30);

    SinkSummary first;
    try (KafkaToDuckDb sink = open(kafka)) {
      sink.transactionPolls(1); // one poll per transaction: many small batches
      sink.hook(stopAfterBatch(sink, 4));
      first = sink.runUntilStopped();
      try (Connection connection = sink.duplicateConnection()) {
        assertThat(rowKeys(connection)).hasSize((int) first.records());
        assertThat(new HashSet<>(rowKeys(connection)))
            .isEqualTo(recordsBelow(kafka, storedOffsets(connection)));
      }
    }
    assertThat(first.batches()).isEqualTo(4);
    assertThat(first.records()).isBetween(1L, 200L);

    produce(kafka, "logs/second.log", 700, 30);
    SinkSummary second;
    try (KafkaToDuckDb sink = open(kafka)) {
      second = sink.runUntilCaughtUp();
    }

    assertThat(first.records() + second.records()).isEqualTo(1_460);
    assertExactlyOnce(kafka, 1_460);
  }

  @Test
  void failureBetweenFlushAndCommitRollsBackTheWholeBatchAndTheSinkCanContinue() throws Exception {
    KafkaSettings kafka = KafkaToDuckDbIT.createTopics(broker, "fault", SMALL_POLLS);
    produce(kafka, "logs/fault.log", 700, 30);
    FailOnce fault = new FailOnce(3);
    long committed;

    try (KafkaToDuckDb sink = open(kafka)) {
      sink.transactionPolls(1);
      sink.hook(fault);
      assertThatThrownBy(sink::runUntilCaughtUp)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("failed and was rolled back")
          .hasRootCauseMessage("injected fault between appender flush and commit");
      try (Connection connection = sink.duplicateConnection()) {
        Map<TopicPartition, Long> offsets = storedOffsets(connection);
        List<String> rows = rowKeys(connection);
        assertThat(rows).isNotEmpty().doesNotHaveDuplicates();
        assertThat(new HashSet<>(rows)).isEqualTo(recordsBelow(kafka, offsets));
        committed = offsets.values().stream().mapToLong(Long::longValue).sum();
        assertThat((long) rows.size()).isEqualTo(committed);
      }

      SinkSummary resumed = sink.runUntilCaughtUp();
      assertThat(resumed.records()).isEqualTo(730 - committed);
    }
    assertExactlyOnce(kafka, 730);
  }

  @Test
  void failureRollsBackEveryPollOfAMultiPollTransaction() throws Exception {
    KafkaSettings kafka = KafkaToDuckDbIT.createTopics(broker, "multipoll", SMALL_POLLS);
    produce(kafka, "logs/multi.log", 700, 30);
    long committed;

    try (KafkaToDuckDb sink = open(kafka)) {
      sink.transactionPolls(4); // a backlog of full 50-record polls: 4 per transaction
      sink.hook(new FailOnce(2));
      assertThatThrownBy(sink::runUntilCaughtUp).hasMessageContaining("failed and was rolled back");
      try (Connection connection = sink.duplicateConnection()) {
        Map<TopicPartition, Long> offsets = storedOffsets(connection);
        List<String> rows = rowKeys(connection);
        committed = offsets.values().stream().mapToLong(Long::longValue).sum();
        assertThat(committed).isBetween(1L, 200L); // the first transaction only
        assertThat(rows).hasSize((int) committed).doesNotHaveDuplicates();
        assertThat(new HashSet<>(rows)).isEqualTo(recordsBelow(kafka, offsets));
      }

      SinkSummary resumed = sink.runUntilCaughtUp();
      assertThat(resumed.records()).isEqualTo(730 - committed);
      assertThat(resumed.batches()).isLessThan(730 / 50);
    }
    assertExactlyOnce(kafka, 730);
  }

  @Test
  void offsetsOfAnOlderTopicWithTheSameNameAreNotReused() throws Exception {
    // Every ingest run with an embedded broker meets its topics anew, starting at offset 0.
    KafkaSettings kafka = KafkaToDuckDbIT.createTopics(broker, "reborn", Map.of());
    produce(kafka, "logs/old.log", 60, 0);
    try (KafkaToDuckDb sink = open(kafka)) {
      assertThat(sink.runUntilCaughtUp().eventsWritten()).isEqualTo(60);
    }
    recreateTopics(kafka);
    produce(kafka, "logs/new.log", 90, 0);

    SinkSummary second;
    try (KafkaToDuckDb sink = open(kafka)) {
      second = sink.runUntilCaughtUp();
    }

    assertThat(second.eventsWritten()).isEqualTo(90);
    Set<String> expected = new HashSet<>();
    TestEvents.mixed("logs/old.log", 60).forEach(event -> expected.add(key(event)));
    TestEvents.mixed("logs/new.log", 90).forEach(event -> expected.add(key(event)));
    try (Connection connection = KafkaToDuckDbIT.connect(dir.resolve("restart.duckdb"))) {
      List<String> rows = rowKeys(connection);
      assertThat(rows).doesNotHaveDuplicates();
      assertThat(new HashSet<>(rows)).isEqualTo(expected);
    }
  }

  private static void recreateTopics(KafkaSettings kafka) throws Exception {
    try (Admin admin = Admin.create(kafka.adminProperties())) {
      admin.deleteTopics(kafka.topics().all()).all().get();
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (admin.listTopics().names().get().stream().anyMatch(kafka.topics().all()::contains)) {
        assertThat(System.nanoTime()).as("topics deleted").isLessThan(deadline);
        Thread.sleep(50);
      }
      kafka.topics().ensureExist(admin, kafka.partitions(), TIMEOUT);
    }
  }

  private static String key(EngineEvent event) {
    return event.type() + "|" + event.source().path() + "|" + event.source().line();
  }

  private KafkaToDuckDb open(KafkaSettings kafka) {
    return KafkaToDuckDb.open(SinkSettings.defaults(dir.resolve("restart.duckdb")), kafka, CLOCK);
  }

  private void assertExactlyOnce(KafkaSettings kafka, int records) throws Exception {
    try (Connection connection = KafkaToDuckDbIT.connect(dir.resolve("restart.duckdb"))) {
      List<String> rows = rowKeys(connection);
      Set<String> all = recordsBelow(kafka, storedOffsets(connection));
      assertThat(all).hasSize(records);
      assertThat(rows).doesNotHaveDuplicates();
      assertThat(new HashSet<>(rows)).isEqualTo(all);
    }
  }

  private static void produce(KafkaSettings kafka, String path, int events, int rejects) {
    try (EventProducer producer = EventProducer.open(kafka)) {
      for (EngineEvent event : TestEvents.mixed(path, events)) {
        producer.event(event);
      }
      for (int i = 0; i < rejects; i++) {
        SourcePosition position = new SourcePosition(path, events + i + 1, 100L * (events + i));
        producer.rejected(
            Rejection.of(position, Engine.VLLM, "unrecognized line", "bad " + i),
            ("bad " + i).getBytes(UTF_8));
      }
    }
  }

  private static BatchHook stopAfterBatch(KafkaToDuckDb sink, long batch) {
    return new BatchHook() {
      @Override
      public void afterCommit(long committed) {
        if (committed == batch) {
          sink.stop();
        }
      }
    };
  }

  /** {@code table|path|line} of every row of every table the sink writes. */
  private static List<String> rowKeys(Connection connection) throws SQLException {
    List<String> keys = new ArrayList<>();
    for (TableSchema<?> table : SinkTables.ALL) {
      String line = table.name().equals("rejects") ? "line_no" : "source_line";
      String sql = "SELECT source_path, " + line + " FROM " + table.name();
      try (Statement statement = connection.createStatement();
          ResultSet result = statement.executeQuery(sql)) {
        while (result.next()) {
          keys.add(table.name() + "|" + result.getString(1) + "|" + result.getLong(2));
        }
      }
    }
    return keys;
  }

  private static Map<TopicPartition, Long> storedOffsets(Connection connection)
      throws SQLException {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    try (Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery("SELECT topic, part, next_offset FROM kafka_offsets")) {
      while (result.next()) {
        offsets.put(new TopicPartition(result.getString(1), result.getInt(2)), result.getLong(3));
      }
    }
    return offsets;
  }

  /** {@code table|path|line} of every record on both topics below {@code offsets}. */
  private static Set<String> recordsBelow(KafkaSettings kafka, Map<TopicPartition, Long> offsets) {
    Set<String> keys = new HashSet<>();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumerProperties())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : kafka.topics().all()) {
        for (PartitionInfo info : consumer.partitionsFor(topic)) {
          partitions.add(new TopicPartition(topic, info.partition()));
        }
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (!reached(consumer, partitions, offsets)) {
        assertThat(System.nanoTime()).as("reading the topics back").isLessThan(deadline);
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          long stored =
              offsets.getOrDefault(new TopicPartition(record.topic(), record.partition()), 0L);
          if (record.offset() < stored) {
            keys.add(key(kafka, record));
          }
        }
      }
    }
    return keys;
  }

  private static boolean reached(
      KafkaConsumer<?, ?> consumer,
      List<TopicPartition> partitions,
      Map<TopicPartition, Long> offsets) {
    for (TopicPartition partition : partitions) {
      if (consumer.position(partition) < offsets.getOrDefault(partition, 0L)) {
        return false;
      }
    }
    return true;
  }

  private static String key(KafkaSettings kafka, ConsumerRecord<String, byte[]> record) {
    if (record.topic().equals(kafka.topics().events())) {
      return key(EventJson.read(new String(record.value(), UTF_8)));
    }
    String path = new String(record.headers().lastHeader(RejectHeaders.PATH).value(), UTF_8);
    String line = new String(record.headers().lastHeader(RejectHeaders.LINE).value(), UTF_8);
    return "rejects|" + path + "|" + line;
  }

  /** Fails one batch after its Appenders were flushed, before its commit. */
  private static final class FailOnce implements BatchHook {
    private final long failingBatch;
    private boolean failed;

    FailOnce(long failingBatch) {
      this.failingBatch = failingBatch;
    }

    @Override
    public void beforeCommit(long batch) throws SQLException {
      if (batch == failingBatch && !failed) {
        failed = true;
        throw new SQLException("injected fault between appender flush and commit");
      }
    }
  }
}
