package dev.tokentrace.ingest.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The two topics of a tokentrace pipeline: {@code <prefix>.events} (one JSON event per record) and
 * {@code <prefix>.rejects} (raw rejected lines with {@code x-reject.*} headers). Immutable.
 */
public record Topics(String prefix) {
  public static final String DEFAULT_PREFIX = "tokentrace";
  public static final String EVENTS_SUFFIX = ".events";
  public static final String REJECTS_SUFFIX = ".rejects";

  /** Kafka's legal topic characters; the longest suffix must still fit in 249 characters. */
  private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");

  private static final int MAX_TOPIC_LENGTH = 249;

  public Topics {
    validatePrefix(prefix);
  }

  public static Topics defaults() {
    return new Topics(DEFAULT_PREFIX);
  }

  public String events() {
    return prefix + EVENTS_SUFFIX;
  }

  public String rejects() {
    return prefix + REJECTS_SUFFIX;
  }

  public List<String> all() {
    return List.of(events(), rejects());
  }

  /**
   * Creates both topics with {@code partitions} partitions and the cluster's default replication
   * factor. Topics that already exist are kept as they are (their partition count is not changed).
   *
   * @throws IllegalStateException naming the topic when creation fails or times out
   */
  public void ensureExist(Admin admin, int partitions, Duration timeout) {
    List<NewTopic> wanted = new ArrayList<>();
    for (String name : all()) {
      wanted.add(new NewTopic(name, Optional.of(partitions), Optional.empty()));
    }
    Map<String, KafkaFuture<Void>> results = admin.createTopics(wanted).values();
    for (Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
      await(result.getKey(), result.getValue(), timeout);
    }
  }

  private static void await(String topic, KafkaFuture<Void> future, Duration timeout) {
    try {
      future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException(
            "kafka: cannot create topic " + topic + ": " + e.getCause(), e.getCause());
      }
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "kafka: creating topic " + topic + " timed out after " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("kafka: interrupted while creating topic " + topic, e);
    }
  }

  static void validatePrefix(String prefix) {
    requireNonNull(prefix, "prefix is null");
    if (!LEGAL.matcher(prefix).matches()) {
      throw new IllegalArgumentException(
          "topic prefix must match [a-zA-Z0-9._-]+: '" + prefix + "'");
    }
    if (prefix.length() + REJECTS_SUFFIX.length() > MAX_TOPIC_LENGTH) {
      throw new IllegalArgumentException("topic prefix too long: " + prefix.length() + " chars");
    }
  }
}
