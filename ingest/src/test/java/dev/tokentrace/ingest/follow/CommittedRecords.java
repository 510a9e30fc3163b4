package dev.tokentrace.ingest.follow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.kafka.RejectHeaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads back everything committed on a pipeline's events and rejects topics, as a {@code
 * read_committed} sink would see it: events and {@code path:line reason} of rejections.
 */
final class CommittedRecords {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  final List<EngineEvent> events = new ArrayList<>();
  final List<String> rejects = new ArrayList<>();

  static CommittedRecords read(KafkaSettings kafka) {
    CommittedRecords read = new CommittedRecords();
    try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(kafka.consumerProperties())) {
      List<TopicPartition> partitions = new ArrayList<>();
      for (String topic : kafka.topics().all()) {
        for (PartitionInfo info : consumer.partitionsFor(topic)) {
          partitions.add(new TopicPartition(topic, info.partition()));
        }
      }
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (!reached(consumer, end)) {
        assertThat(System.nanoTime()).as("reading the topics back").isLessThan(deadline);
        for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(100))) {
          read.add(kafka, record);
        }
      }
    }
    return read;
  }

  /** Request ids of the request_arrived events, in topic order per partition. */
  List<String> requestIds() {
    List<String> ids = new ArrayList<>();
    for (EngineEvent event : events) {
      if (event instanceof RequestArrived) {
        ids.add(((RequestArrived) event).requestId());
      }
    }
    return ids;
  }

  private void add(KafkaSettings kafka, ConsumerRecord<String, byte[]> record) {
    if (record.topic().equals(kafka.topics().events())) {
      events.add(EventJson.read(new String(record.value(), UTF_8)));
    } else {
      rejects.add(
          header(record, RejectHeaders.PATH)
              + ":"
              + header(record, RejectHeaders.LINE)
              + " "
              + header(record, RejectHeaders.REASON));
    }
  }

  private static String header(ConsumerRecord<?, ?> record, String name) {
    return new String(record.headers().lastHeader(name).value(), UTF_8);
  }

  private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> partition : end.entrySet()) {
      if (consumer.position(partition.getKey()) < partition.getValue()) {
        return false;
      }
    }
    return true;
  }
}
