package dev.tokentrace.ingest.sink;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.EventProducer;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.kafka.RejectHeaders;
import dev.tokentrace.parse.Rejection;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Events and rejects through a real in-JVM broker into a real DuckDB file, column by column. */
final class KafkaToDuckDbIT {
  static final Duration TIMEOUT = Duration.ofSeconds(30);
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-01T12:00:00Z"), ZoneOffset.UTC);

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
  void writesEveryEventTypeWithEveryColumnNullsAndUtcTimestamps() throws Exception {
    KafkaSettings kafka = createTopics(broker, "all-types", Map.of());
    int count = 40 * TestEvents.TYPES;
    List<EngineEvent> events = TestEvents.mixed("logs/server.log", count);
    try (EventProducer producer = EventProducer.open(kafka)) {
      events.forEach(producer::event);
    }

    SinkSummary summary = sinkAll(kafka, db());

    assertThat(summary.eventsWritten()).isEqualTo(count);
    assertThat(summary.eventRows().values()).containsOnly(40L);
    assertThat(summary.eventRows()).hasSize(TestEvents.TYPES);
    assertThat(summary.rejectRows()).isZero();
    try (Connection connection = connect(db())) {
      assertThat(TableRows.events(connection)).containsExactlyInAnyOrderElementsOf(events);
      // event 1 is a request_timing at line 2: ts = BASE + 1.234 s, arrival_ts = BASE - 1 ms
      assertThat(
              rows(
                  connection,
                  "SELECT CAST(ts AS VARCHAR), CAST(arrival_ts AS VARCHAR), prefill_ms, cached_tokens"
                      + " FROM request_timing WHERE source_line = 2"))
          .containsExactly(tuple("2026-02-13 11:33:34.234", "2026-02-13 11:33:32.999", 11.5, 0));
      // request_arrived is every TYPES-th event, and every fifth event has no ts
      assertThat(rows(connection, "SELECT count(*) FROM request_arrived WHERE ts IS NULL"))
          .containsExactly(tuple(8L));
      assertThat(
              rows(
                  connection,
                  "SELECT sum(next_offset) FROM kafka_offsets WHERE topic = 'all-types.events'"))
          .containsExactly(tuple(java.math.BigInteger.valueOf(count)));
    }
  }

  @Test
  void writesRejectRowsFromTheirHeadersAndRawLines() throws Exception {
    KafkaSettings kafka = createTopics(broker, "rejects", Map.of());
    String reasonA = "stats line: bad 'GPU KV cache usage' value";
    try (EventProducer producer = EventProducer.open(kafka)) {
      producer.rejected(
          rejection("logs/a.log", 7, 640, Engine.VLLM, reasonA), bytes("raw text line\r"));
      producer.rejected(
          rejection("logs/b.log", 2, 10, null, "invalid utf-8 at byte 3"),
          new byte[] {'a', 'b', (byte) 0xff, 0, 'c'});
      producer.rejected(
          rejection("logs/c.log", 1, 0, Engine.SGLANG, "line too long (2000 bytes > 1000)"),
          bytes("y".repeat(2_000)));
    }

    SinkSummary summary = sinkAll(kafka, db());

    assertThat(summary.rejectRows()).isEqualTo(3);
    assertThat(summary.eventsWritten()).isZero();
    try (Connection connection = connect(db())) {
      assertThat(
              rows(
                  connection,
                  "SELECT source_path, line_no, byte_offset, engine, reason, excerpt,"
                      + " CAST(ingested_ts AS VARCHAR) FROM rejects ORDER BY source_path"))
          .containsExactly(
              tuple(
                  "logs/a.log", 7L, 640L, "vllm", reasonA, "raw text line", "2026-03-01 12:00:00"),
              tuple(
                  "logs/b.log",
                  2L,
                  10L,
                  null,
                  "invalid utf-8 at byte 3",
                  "ab\uFFFD\uFFFDc",
                  "2026-03-01 12:00:00"),
              tuple(
                  "logs/c.log",
                  1L,
                  0L,
                  "sglang",
                  "line too long (2000 bytes > 1000)",
                  "y".repeat(Rejection.MAX_EXCERPT - 1) + "…",
                  "2026-03-01 12:00:00"));
    }
    Map<String, ConsumerRecord<String, byte[]>> records = readRejectsTopic(kafka);
    assertThat(headers(records.get("logs/a.log")))
        .containsExactly(
            Map.entry(RejectHeaders.PATH, "logs/a.log"),
            Map.entry(RejectHeaders.LINE, "7"),
            Map.entry(RejectHeaders.OFFSET, "640"),
            Map.entry(RejectHeaders.ENGINE, "vllm"),
            Map.entry(RejectHeaders.REASON, reasonA));
    assertThat(headers(records.get("logs/b.log"))).doesNotContainKey(RejectHeaders.ENGINE);
    assertThat(records.get("logs/b.log").value()).containsExactly('a', 'b', (byte) 0xff, 0, 'c');
    assertThat(records.get("logs/c.log").value()).hasSize(2_000);
  }

  @Test
  void turnsAnUndecodableEventRecordIntoARejectRow() throws Exception {
    KafkaSettings kafka = createTopics(broker, "poison", Map.of());
    try (KafkaProducer<String, byte[]> foreign = new KafkaProducer<>(kafka.producerProperties())) {
      foreign
          .send(new ProducerRecord<>("poison.events", 0, "k", bytes("{\"type\":\"nope\"}")))
          .get();
      // the JSON literal null failed the whole batch with a NullPointerException before
      foreign.send(new ProducerRecord<>("poison.events", 0, "k", bytes("null"))).get();
    }
    try (EventProducer producer = EventProducer.open(kafka)) {
      producer.event(TestEvents.event("x.log", 0));
    }

    SinkSummary summary = sinkAll(kafka, db());

    assertThat(summary.undecodable()).isEqualTo(2);
    assertThat(summary.rejectRows()).isEqualTo(2);
    assertThat(summary.eventsWritten()).isEqualTo(1);
    try (Connection connection = connect(db())) {
      assertThat(
              rows(
                  connection,
                  "SELECT source_path, line_no, byte_offset, engine, reason, excerpt FROM rejects"))
          .containsExactly(
              tuple(
                  "kafka:poison.events-0",
                  0L,
                  0L,
                  null,
                  "undecodable event record",
                  "{\"type\":\"nope\"}"),
              tuple("kafka:poison.events-0", 0L, 1L, null, "undecodable event record", "null"));
    }
  }

  @Test
  void refusesToStartWhenTheTopicsDoNotExist() {
    KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 1, "absent", Map.of());

    assertThatThrownBy(() -> KafkaToDuckDb.open(SinkSettings.defaults(db()), kafka, CLOCK))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "kafka: topics [absent.events, absent.rejects, absent.clients] do not exist (ship or ingest creates"
                + " them)");
  }

  static KafkaSettings createTopics(
      EmbeddedBroker broker, String prefix, Map<String, String> clientProperties) {
    KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 3, prefix, clientProperties);
    try (Admin admin = Admin.create(kafka.adminProperties())) {
      kafka.topics().ensureExist(admin, kafka.partitions(), TIMEOUT);
    }
    return kafka;
  }

  static SinkSummary sinkAll(KafkaSettings kafka, Path db) {
    try (KafkaToDuckDb sink = KafkaToDuckDb.open(SinkSettings.defaults(db), kafka, CLOCK)) {
      return sink.runUntilCaughtUp();
    }
  }

  static Connection connect(Path db) throws SQLException {
    return DriverManager.getConnection("jdbc:duckdb:" + db);
  }

  static List<Tuple> rows(Connection connection, String sql) throws SQLException {
    List<Tuple> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        Object[] values = new Object[columns];
        for (int i = 0; i < columns; i++) {
          values[i] = result.getObject(i + 1);
        }
        rows.add(tuple(values));
      }
    }
    return rows;
  }

  private Path db() {
    return dir.resolve("analysis.duckdb");
  }

  private static Rejection rejection(
      String path, long line, long offset, Engine engine, String reason) {
    return Rejection.of(new SourcePosition(path, line, offset), engine, reason, "excerpt");
  }

  private static Map<String, ConsumerRecord<String, byte[]>> readRejectsTopic(KafkaSettings kafka) {
    Map<String, ConsumerRecord<String, byte[]>> byKey = new HashMap<>();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumerProperties())) {
      List<TopicPartition> partitions = new ArrayList<>();
      consumer
          .partitionsFor(kafka.topics().rejects())
          .forEach(info -> partitions.add(new TopicPartition(info.topic(), info.partition())));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (byKey.size() < 3 && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(record -> byKey.put(record.key(), record));
      }
    }
    return byKey;
  }

  private static Map<String, String> headers(ConsumerRecord<String, byte[]> record) {
    Map<String, String> headers = new java.util.LinkedHashMap<>();
    for (Header header : record.headers()) {
      headers.put(header.key(), new String(header.value(), UTF_8));
    }
    return headers;
  }

  private static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }
}
