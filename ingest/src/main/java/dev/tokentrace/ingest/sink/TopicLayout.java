package dev.tokentrace.ingest.sink;

import dev.tokentrace.ingest.kafka.KafkaSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The partitions the sink reads and the id of each topic. The id tells apart two topics of the same
 * name (one deleted and created again, or one per embedded broker): stored offsets are only valid
 * for the topic id they were stored with.
 */
record TopicLayout(List<TopicPartition> partitions, Map<String, String> topicIds) {
  TopicLayout {
    partitions = List.copyOf(partitions);
    topicIds = Map.copyOf(topicIds);
  }

  /**
   * @throws IllegalStateException when a topic does not exist or Kafka does not answer in time
   */
  static TopicLayout describe(KafkaSettings kafka, Duration timeout) {
    List<String> topics = kafka.topics().all();
    Map<String, TopicDescription> descriptions;
    Admin admin = Admin.create(kafka.adminProperties());
    try {
      descriptions =
          admin
              .describeTopics(topics)
              .allTopicNames()
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new IllegalStateException(
            "kafka: topics " + topics + " do not exist (ship or ingest creates them)", e);
      }
      throw new IllegalStateException("kafka: cannot describe topics " + topics, e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "kafka: describing topics " + topics + " timed out after " + timeout.toMillis() + " ms",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("kafka: interrupted while describing topics", e);
    } finally {
      // bounded: a plain close waits for the calls an unreachable cluster never answers
      admin.close(Duration.ofSeconds(1));
    }
    return of(topics, descriptions);
  }

  private static TopicLayout of(List<String> topics, Map<String, TopicDescription> descriptions) {
    List<TopicPartition> partitions = new ArrayList<>();
    Map<String, String> ids = new HashMap<>();
    for (String topic : topics) {
      TopicDescription description = descriptions.get(topic);
      ids.put(topic, description.topicId().toString());
      for (TopicPartitionInfo partition : description.partitions()) {
        partitions.add(new TopicPartition(topic, partition.partition()));
      }
    }
    return new TopicLayout(partitions, ids);
  }
}
