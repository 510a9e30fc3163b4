package dev.tokentrace.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.SourcePosition;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

final class TopicsIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /**
   * Short delivery timeout: a stuck idempotent producer fails this test in seconds, not minutes.
   */
  private static final Map<String, String> IMPATIENT =
      Map.of("producer.request.timeout.ms", "4000", "producer.delivery.timeout.ms", "8000");

  private static EmbeddedBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = EmbeddedBroker.start();
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  @Test
  void createsBothTopicsWithTheGivenPartitionsAndToleratesExistingOnes() throws Exception {
    KafkaSettings kafka = new KafkaSettings(broker.bootstrapServers(), 4, "created", Map.of());
    try (Admin admin = Admin.create(kafka.adminProperties())) {
      kafka.topics().ensureExist(admin, 4, TIMEOUT);
      kafka.topics().ensureExist(admin, 7, TIMEOUT);

      Map<String, TopicDescription> topics =
          admin.describeTopics(Set.of("created.events", "created.rejects")).allTopicNames().get();
      assertThat(topics.get("created.events").partitions()).hasSize(4);
      assertThat(topics.get("created.rejects").partitions()).hasSize(4);
    }
  }

  @Test
  void anIdempotentProducerCanSendRightAfterTheTopicsWereCreated() {
    for (int round = 0; round < 5; round++) {
      KafkaSettings kafka =
          new KafkaSettings(broker.bootstrapServers(), 3, "fresh" + round, IMPATIENT);
      try (Admin admin = Admin.create(kafka.adminProperties())) {
        kafka.topics().ensureExist(admin, 3, TIMEOUT);
      }
      try (EventProducer producer = EventProducer.open(kafka)) {
        for (int i = 0; i < 200; i++) {
          SourcePosition position = new SourcePosition("a.log", i + 1, i);
          producer.event(
              new RequestArrived(Engine.VLLM, "i", null, position, "r" + i, "r" + i, null, null));
        }
        producer.flush();
        assertThat(producer.acknowledged()).isEqualTo(200);
      }
    }
  }
}
