package dev.tokentrace.ingest.kafka;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.jspecify.annotations.Nullable;

/**
 * The topics of a tokentrace pipeline: {@code <prefix>.events} (one JSON event per record), {@code
 * <prefix>.rejects} (raw rejected lines with {@code x-reject.*} headers) and {@code
 * <prefix>.clients} (client timing rows), the three the sink reads ({@link #all()}), plus {@code
 * <prefix>.checkpoints}, where follow-mode shippers commit their file positions in the same
 * transaction as the events (compacted, one partition, keyed by shipper id). Immutable.
 */
public record Topics(String prefix) {
  public static final String DEFAULT_PREFIX = "tokentrace";
  public static final String EVENTS_SUFFIX = ".events";
  public static final String REJECTS_SUFFIX = ".rejects";
  public static final String CHECKPOINTS_SUFFIX = ".checkpoints";
  public static final String CLIENTS_SUFFIX = ".clients";

  /**
   * Checkpoint topic settings: compacted, so only each shipper's latest checkpoint is kept, with
   * hourly segments so that compaction (which never touches the active segment) keeps it small.
   */
  private static final Map<String, String> CHECKPOINTS_CONFIG =
      Map.of("cleanup.policy", "compact", "segment.ms", "3600000");

  /** Kafka's legal topic characters; the longest suffix must still fit in 249 characters. */
  private static final Pattern LEGAL = Pattern.compile("[a-zA-Z0-9._-]+");

  private static final int MAX_TOPIC_LENGTH = 249;

  private static final Duration LEADER_RETRY_BACKOFF = Duration.ofMillis(50);

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

  /**
   * Client and gateway timing rows streamed by {@code ship --follow} (one {@code client_timing} row
   * per record, docs/storage.md#client-rows-in-kafka).
   */
  public String clients() {
    return prefix + CLIENTS_SUFFIX;
  }

  /** Where follow-mode shippers keep their checkpoints (see {@link CheckpointTopic}). */
  public String checkpoints() {
    return prefix + CHECKPOINTS_SUFFIX;
  }

  /** The topics the sink reads: events, rejects and client rows. */
  public List<String> all() {
    return List.of(events(), rejects(), clients());
  }

  /**
   * Creates both topics with {@code partitions} partitions and the cluster's default replication
   * factor, then waits until every partition's leader serves requests. Topics that already exist
   * are kept as they are (their partition count is not changed).
   *
   * <p>Why the wait: right after creation the metadata already names a leader that has not yet
   * taken over the partition. An idempotent producer's first batch then fails with {@code
   * NOT_LEADER_OR_FOLLOWER} while its next in-flight batch succeeds; the broker accepts that one as
   * the producer's first, and the retried first batch is refused with {@code
   * OUT_OF_ORDER_SEQUENCE_NUMBER} until the delivery timeout (seen on Kafka 4.4.0, in-JVM broker).
   * Listing the partitions' end offsets goes through the same leader check as a produce request.
   *
   * <p>A cluster that does not let tokentrace create topics (ACLs, policies) is fine as long as the
   * topics exist already: the creation error is only reported when they cannot be described.
   *
   * @throws IllegalStateException naming the topic when creation fails or times out
   */
  public void ensureExist(Admin admin, int partitions, Duration timeout) {
    List<NewTopic> wanted = new ArrayList<>();
    for (String name : all()) {
      wanted.add(new NewTopic(name, Optional.of(partitions), Optional.empty()));
    }
    create(admin, wanted, all(), timeout);
  }

  /**
   * Creates the checkpoints topic (one partition, compacted) if it is missing and waits for its
   * leader, like {@link #ensureExist}. Only follow-mode shippers need it.
   */
  public void ensureCheckpointsExist(Admin admin, Duration timeout) {
    NewTopic topic =
        new NewTopic(checkpoints(), Optional.of(1), Optional.empty()).configs(CHECKPOINTS_CONFIG);
    create(admin, List.of(topic), List.of(checkpoints()), timeout);
  }

  private void create(Admin admin, List<NewTopic> wanted, List<String> names, Duration timeout) {
    Map<String, KafkaFuture<Void>> results = admin.createTopics(wanted).values();
    IllegalStateException creationFailure = null;
    for (Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
      try {
        await("creating topic " + result.getKey(), result.getValue(), timeout);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException) && creationFailure == null) {
          creationFailure =
              new IllegalStateException(
                  "kafka: cannot create topic " + result.getKey() + ": " + e.getCause(),
                  e.getCause());
        }
      }
    }
    awaitLeaders(admin, names, timeout, creationFailure);
  }

  private static void awaitLeaders(
      Admin admin,
      List<String> names,
      Duration timeout,
      @Nullable IllegalStateException creationFailure) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        Map<TopicPartition, OffsetSpec> latest = latestOfEveryPartition(admin, names, timeout);
        await("waiting for partition leaders", admin.listOffsets(latest).all(), timeout);
        return;
      } catch (ExecutionException e) {
        // Right after creation the broker may not know the topic yet, or its leader may not host
        // the partition yet: both are retriable.
        if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
          if (creationFailure != null) {
            throw creationFailure;
          }
          throw new IllegalStateException(
              "kafka: topics " + names + " not ready: " + e.getCause(), e.getCause());
        }
        pause(LEADER_RETRY_BACKOFF);
      }
    }
  }

  private static Map<TopicPartition, OffsetSpec> latestOfEveryPartition(
      Admin admin, List<String> names, Duration timeout) throws ExecutionException {
    Map<String, TopicDescription> descriptions =
        await("describing topics", admin.describeTopics(names).allTopicNames(), timeout);
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (TopicDescription description : descriptions.values()) {
      for (TopicPartitionInfo partition : description.partitions()) {
        latest.put(
            new TopicPartition(description.name(), partition.partition()), OffsetSpec.latest());
      }
    }
    return latest;
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("kafka: interrupted while waiting for partition leaders", e);
    }
  }

  private static <T> T await(String what, KafkaFuture<T> future, Duration timeout)
      throws ExecutionException {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "kafka: " + what + " timed out after " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("kafka: interrupted while " + what, e);
    }
  }

  static void validatePrefix(String prefix) {
    requireNonNull(prefix, "prefix is null");
    if (!LEGAL.matcher(prefix).matches()) {
      throw new IllegalArgumentException(
          "topic prefix must match [a-zA-Z0-9._-]+: '" + prefix + "'");
    }
    if (prefix.length() + CHECKPOINTS_SUFFIX.length() > MAX_TOPIC_LENGTH) {
      throw new IllegalArgumentException("topic prefix too long: " + prefix.length() + " chars");
    }
  }
}
