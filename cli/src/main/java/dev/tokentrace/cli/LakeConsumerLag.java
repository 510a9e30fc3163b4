package dev.tokentrace.cli;

import dev.tokentrace.exporter.ConsumerLagReader;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.kafka.Topics;
import dev.tokentrace.store.lake.LakeManifest;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.jspecify.annotations.Nullable;

/**
 * The lake sinks' consumer lag for {@code serve --lake --bootstrap-servers}
 * (docs/live.md#consumer-lag): per partition of the lake's topics, Kafka's last stable offset (what
 * a {@code read_committed} sink can read) minus the partition's committed position, which is the
 * lake manifest's {@code next_offset} (the lake is the sinks' only record of progress,
 * docs/storage.md#lake-commit-protocol) or, for a partition no sink has committed yet, the earliest
 * offset Kafka holds (where a sink starts). The group and topic prefix are the lake marker's.
 */
final class LakeConsumerLag implements ConsumerLagReader, AutoCloseable {
  static final Duration TIMEOUT = Duration.ofSeconds(3);

  private final Path lake;
  private final KafkaSettings kafka;
  private @Nullable Admin admin;

  LakeConsumerLag(Path lake, KafkaSettings kafka) {
    this.lake = lake;
    this.kafka = kafka;
  }

  @Override
  public List<PartitionLag> read() throws Exception {
    LakeMarker marker = LakeMarker.read(lake);
    Topics topics = new Topics(marker.topicPrefix());
    List<String> names = List.of(topics.events(), topics.rejects());
    Admin client = admin();
    Map<String, TopicDescription> described =
        client.describeTopics(names).allTopicNames().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
    for (TopicDescription topic : described.values()) {
      topic
          .partitions()
          .forEach(
              info -> {
                TopicPartition partition = new TopicPartition(topic.name(), info.partition());
                latest.put(partition, OffsetSpec.latest());
                earliest.put(partition, OffsetSpec.earliest());
              });
    }
    Map<TopicPartition, ListOffsetsResultInfo> ends =
        client
            .listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
            .all()
            .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    Map<TopicPartition, ListOffsetsResultInfo> starts =
        client.listOffsets(earliest).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    Map<LakePartition, LakeManifest> manifests = LakeSnapshot.scan(lake).manifests();
    List<PartitionLag> lags = new ArrayList<>();
    for (Map.Entry<TopicPartition, ListOffsetsResultInfo> end : ends.entrySet()) {
      TopicPartition partition = end.getKey();
      LakeManifest manifest =
          manifests.get(new LakePartition(partition.topic(), partition.partition()));
      long committed = manifest != null ? manifest.nextOffset() : starts.get(partition).offset();
      lags.add(
          new PartitionLag(
              marker.group(),
              partition.topic(),
              partition.partition(),
              Math.max(0, end.getValue().offset() - committed)));
    }
    lags.sort(
        java.util.Comparator.comparing(PartitionLag::topic)
            .thenComparingInt(PartitionLag::partition));
    return lags;
  }

  private Admin admin() {
    if (admin == null) {
      Map<String, Object> properties = new HashMap<>(kafka.adminProperties());
      properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
      properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
      admin = Admin.create(properties);
    }
    return admin;
  }

  @Override
  public String describe() {
    return "Kafka " + kafka.bootstrapServers();
  }

  @Override
  public void close() {
    if (admin != null) {
      admin.close(Duration.ofSeconds(2));
    }
  }
}
