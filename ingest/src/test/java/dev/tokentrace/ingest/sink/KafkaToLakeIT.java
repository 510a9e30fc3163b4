package dev.tokentrace.ingest.sink;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.EventProducer;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeCheck;
import dev.tokentrace.store.lake.LakeSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Events through a real in-JVM broker into a real Parquet lake, read back through the views. */
final class KafkaToLakeIT {
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

  static LakeSinkSettings settings(Path lake, String group) {
    LakeSinkSettings defaults = LakeSinkSettings.defaults(lake);
    return new LakeSinkSettings(
        lake,
        group,
        Duration.ofMillis(200),
        defaults.flushRows(),
        Duration.ZERO,
        defaults.compaction(),
        "256MB",
        1,
        defaults.pollTimeout(),
        Duration.ofSeconds(30));
  }

  static SinkSummary sinkAll(KafkaSettings kafka, Path lake, String group) {
    try (KafkaToLake sink = KafkaToLake.open(settings(lake, group), kafka, KafkaToDuckDbIT.CLOCK)) {
      return sink.runUntilCaughtUp();
    }
  }

  static List<EngineEvent> read(Path lake) throws Exception {
    try (Database database = Lake.openReader(lake);
        Connection connection = database.newConnection()) {
      return TableRows.events(connection);
    }
  }

  @Test
  void writesEveryEventTypeAndResumesExactlyOnce() throws Exception {
    KafkaSettings kafka = KafkaToDuckDbIT.createTopics(broker, "lake-all", Map.of());
    List<EngineEvent> events = TestEvents.mixed("logs/server.log", 400);
    try (EventProducer producer = EventProducer.open(kafka)) {
      events.subList(0, 250).forEach(producer::event);
    }
    Path lake = dir.resolve("lake");
    SinkSummary first = sinkAll(kafka, lake, "g");
    assertThat(first.eventsWritten()).isEqualTo(250);
    assertThat(read(lake)).containsExactlyInAnyOrderElementsOf(events.subList(0, 250));

    try (EventProducer producer = EventProducer.open(kafka)) {
      events.subList(250, 400).forEach(producer::event);
    }
    SinkSummary second = sinkAll(kafka, lake, "g");
    assertThat(second.eventsWritten()).isEqualTo(150); // resumed after the committed files
    assertThat(read(lake)).containsExactlyInAnyOrderElementsOf(events);
    assertThat(LakeCheck.check(lake)).isEmpty();
    // a manifest per events partition; the rejects topic had no record, so nothing to commit
    assertThat(LakeSnapshot.scan(lake).manifests()).hasSize(3);
  }

  @Test
  void readsOnlyCommittedTransactions() throws Exception {
    KafkaSettings kafka = KafkaToDuckDbIT.createTopics(broker, "lake-tx", Map.of());
    List<EngineEvent> events = TestEvents.mixed("logs/tx.log", 60);
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(kafka.transactionalProducerProperties("lake-tx-test"))) {
      producer.initTransactions();
      for (int tx = 0; tx < 6; tx++) {
        producer.beginTransaction();
        for (EngineEvent event : events.subList(tx * 10, tx * 10 + 10)) {
          producer.send(
              new ProducerRecord<>(
                  kafka.topics().events(),
                  event.instance() + "-" + event.source().line(),
                  json(event)));
        }
        if (tx % 2 == 0) {
          producer.commitTransaction();
        } else {
          producer.abortTransaction();
        }
      }
    }
    List<EngineEvent> committed = new ArrayList<>();
    for (int tx = 0; tx < 6; tx += 2) {
      committed.addAll(events.subList(tx * 10, tx * 10 + 10));
    }
    Path lake = dir.resolve("lake");
    sinkAll(kafka, lake, "g");
    assertThat(read(lake)).containsExactlyInAnyOrderElementsOf(committed);
    sinkAll(kafka, lake, "g"); // nothing new: nothing written twice
    assertThat(read(lake)).containsExactlyInAnyOrderElementsOf(committed);
  }

  @Test
  void refusesADirectoryThatIsNotALakeAndAnotherGroup() throws Exception {
    KafkaSettings kafka = KafkaToDuckDbIT.createTopics(broker, "lake-refuse", Map.of());
    Path foreign = dir.resolve("foreign");
    Files.createDirectories(foreign);
    Files.writeString(foreign.resolve("data.csv"), "a,b\n");
    assertThatThrownBy(() -> sinkAll(kafka, foreign, "g"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not empty and not a tokentrace lake");
    Path lake = dir.resolve("lake");
    sinkAll(kafka, lake, "g");
    assertThatThrownBy(() -> sinkAll(kafka, lake, "other"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("consumer group 'g', not 'other'");
  }

  private static byte[] json(EngineEvent event) {
    return EventJson.write(event).getBytes(UTF_8);
  }
}
