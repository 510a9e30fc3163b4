package dev.tokentrace.ingest.kafka;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.tail.FileProblems;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jspecify.annotations.Nullable;

/**
 * How tokentrace talks to Kafka: where the brokers are (none: start an {@link EmbeddedBroker}), how
 * many partitions new topics get, the topic prefix, and any client property from a {@code
 * --kafka-config} file (SASL, TLS, tuning). Immutable.
 *
 * <p>Client properties are layered: our defaults, then the file's plain keys (all clients), then
 * the file's {@code producer.}/{@code consumer.}/{@code admin.} keys (that client only, prefix
 * removed, as in Kafka Connect worker configs), then the settings tokentrace cannot work without
 * (serializers; {@code acks=all} and idempotence for exactly-once delivery). A file that tries to
 * change one of those is a config error, not silently overridden.
 *
 * @param bootstrapServers {@value #BOOTSTRAP_SERVERS_DOC}
 * @param partitions {@value #PARTITIONS_DOC}
 * @param topicPrefix {@value #TOPIC_PREFIX_DOC}
 * @param clientProperties {@value #KAFKA_CONFIG_DOC}
 */
public record KafkaSettings(
    @Nullable String bootstrapServers,
    int partitions,
    String topicPrefix,
    Map<String, String> clientProperties) {

  public static final String BOOTSTRAP_SERVERS_DOC =
      "Kafka brokers as host:port[,host:port...] (or bootstrap.servers in the --kafka-config"
          + " file). ship and sink need a running broker; ingest without one starts an embedded"
          + " single-node broker on loopback for the duration of the command";

  public static final int DEFAULT_PARTITIONS = 3;
  public static final String PARTITIONS_DOC =
      "partitions of the topics tokentrace creates; existing topics are used as they are."
          + " Request events are keyed by request_key, so one request stays in one partition";

  public static final String DEFAULT_TOPIC_PREFIX = Topics.DEFAULT_PREFIX;
  public static final String TOPIC_PREFIX_DOC =
      "prefix of the topic names: <prefix>.events and <prefix>.rejects";

  public static final String KAFKA_CONFIG_DOC =
      "properties file of Kafka client settings (SASL, TLS, any client property) passed to the"
          + " producer, consumer and admin client; keys prefixed producer., consumer. or admin."
          + " go to that client only";

  /**
   * Producer batching: a few ms of linger fill batches without hurting freshness
   * (docs/design.md#producer-settings).
   */
  public static final int DEFAULT_LINGER_MS = 5;

  /**
   * 256 KiB batches measured best with ~200-byte lz4-compressed JSON events
   * (docs/design.md#producer-settings).
   */
  public static final int DEFAULT_BATCH_SIZE = 256 * 1024;

  /**
   * lz4: 300 k records/s against 161 k for zstd on the project's machine
   * (docs/design.md#stack-measurements).
   */
  public static final String DEFAULT_COMPRESSION = "lz4";

  /**
   * Records per poll, and so the largest DuckDB transaction of the sink: large transactions make
   * the Appender efficient, and 5,000 events of about 300 bytes stay far below a MiB of heap.
   */
  public static final int DEFAULT_MAX_POLL_RECORDS = 5_000;

  /**
   * How long a shipping transaction may stay open before the transaction coordinator aborts it. A
   * killed shipper's open transaction holds back the sink ({@code read_committed}) on its
   * partitions until its restart aborts it, or until this timeout; a shipper commits every few
   * hundred milliseconds, so a minute is far beyond normal use.
   */
  public static final int DEFAULT_TRANSACTION_TIMEOUT_MS = 60_000;

  /**
   * How long one producer call may block on an unreachable broker before it returns to the shipper,
   * which logs that it is waiting and tries again (so it notices a stop request).
   */
  public static final int DEFAULT_MAX_BLOCK_MS = 10_000;

  /**
   * Retry backoff of the transactional producer. With Kafka 4's transactions (KIP-890 v2) the first
   * batch of a transaction can be refused with {@code CONCURRENT_TRANSACTIONS} while the previous
   * commit's markers are being written; that lasts milliseconds, so retrying after 20 ms (as
   * Kafka's client does for AddPartitionsToTxn) instead of the default 100 ms keeps the next
   * transaction from waiting. See {@link TransactionalEventProducer} for the rest of the story.
   */
  public static final int TRANSACTIONAL_RETRY_BACKOFF_MS = 20;

  /**
   * Linger of the transactional producer: its records become visible only at the next commit (every
   * 200 ms by default) anyway, so waiting up to 50 ms fills batches ten times fuller than the batch
   * producer's 5 ms, and each batch costs an lz4 stream and a request (the largest CPU item of a
   * shipper in a profile of 300 k vLLM lines).
   */
  public static final int TRANSACTIONAL_LINGER_MS = 50;

  static final String PRODUCER_PREFIX = "producer.";
  static final String CONSUMER_PREFIX = "consumer.";
  static final String ADMIN_PREFIX = "admin.";

  /** Producer settings a --kafka-config file may not change, with the reason. */
  private static final Map<String, String> PRODUCER_FIXED =
      Map.of(
          ProducerConfig.ACKS_CONFIG, "all",
          ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");

  /** Keys tokentrace sets itself: a --kafka-config file may not set them at all. */
  private static final Map<String, String> RESERVED =
      Map.of(
          ProducerConfig.TRANSACTIONAL_ID_CONFIG,
          "tokentrace derives it from --shipper-id",
          ConsumerConfig.ISOLATION_LEVEL_CONFIG,
          "the sink reads read_committed, so that it sees only what shippers committed");

  public KafkaSettings {
    requireNonNull(topicPrefix, "topicPrefix is null");
    requireNonNull(clientProperties, "clientProperties is null");
    if (bootstrapServers != null && bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("bootstrapServers is blank");
    }
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be >= 1: " + partitions);
    }
    Topics.validatePrefix(topicPrefix);
    clientProperties = Map.copyOf(clientProperties);
    List<String> problems = fixedSettingProblems(clientProperties);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
  }

  /** Every default: embedded broker, {@value #DEFAULT_PARTITIONS} partitions, no extra props. */
  public static KafkaSettings defaults() {
    return new KafkaSettings(null, DEFAULT_PARTITIONS, DEFAULT_TOPIC_PREFIX, Map.of());
  }

  /**
   * Builds the settings from CLI options; null means "not given". A {@code bootstrap.servers} in
   * the config file is used when no {@code bootstrapServers} option is given.
   *
   * @throws IllegalArgumentException for an unreadable config file or a bad value, naming it
   */
  public static KafkaSettings from(
      @Nullable String bootstrapServers,
      @Nullable Integer partitions,
      @Nullable String topicPrefix,
      @Nullable Path kafkaConfig) {
    Map<String, String> properties = kafkaConfig == null ? Map.of() : readConfig(kafkaConfig);
    String bootstrap =
        bootstrapServers != null
            ? bootstrapServers
            : properties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
    return new KafkaSettings(
        bootstrap,
        partitions == null ? DEFAULT_PARTITIONS : partitions,
        topicPrefix == null ? DEFAULT_TOPIC_PREFIX : topicPrefix,
        properties);
  }

  /**
   * Names the client properties without their values: they often hold credentials ({@code
   * sasl.jaas.config}, {@code ssl.key.password}), and settings end up in logs and messages.
   */
  @Override
  public String toString() {
    return "KafkaSettings[bootstrapServers="
        + bootstrapServers
        + ", partitions="
        + partitions
        + ", topicPrefix="
        + topicPrefix
        + ", clientProperties="
        + new TreeMap<>(clientProperties).keySet()
        + "]";
  }

  /** A copy pointing at {@code servers} (e.g. an embedded broker that was just started). */
  public KafkaSettings withBootstrapServers(String servers) {
    return new KafkaSettings(servers, partitions, topicPrefix, clientProperties);
  }

  /** True when no brokers are configured and an embedded broker must be started. */
  public boolean embedded() {
    return bootstrapServers == null;
  }

  public Topics topics() {
    return new Topics(topicPrefix);
  }

  /**
   * Properties of a follow-mode shipper's producer: {@link #producerProperties()} plus the
   * transactional id (events and the shipper's checkpoint are committed in one transaction), the
   * transaction timeout and a short {@code max.block.ms} (calls return while the broker is
   * unreachable, so that the shipper can say it is waiting and notice a stop request).
   */
  public Map<String, Object> transactionalProducerProperties(String transactionalId) {
    requireNonNull(transactionalId, "transactionalId is null");
    Map<String, Object> properties = producerProperties(TRANSACTIONAL_LINGER_MS);
    properties.putIfAbsent(
        ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, DEFAULT_TRANSACTION_TIMEOUT_MS);
    properties.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, DEFAULT_MAX_BLOCK_MS);
    properties.putIfAbsent(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, TRANSACTIONAL_RETRY_BACKOFF_MS);
    properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    return properties;
  }

  /** Producer properties: String keys, byte[] values, idempotent, acks=all, lz4. */
  public Map<String, Object> producerProperties() {
    return producerProperties(DEFAULT_LINGER_MS);
  }

  private Map<String, Object> producerProperties(int lingerMs) {
    Map<String, Object> properties = new HashMap<>();
    properties.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
    properties.put(ProducerConfig.BATCH_SIZE_CONFIG, DEFAULT_BATCH_SIZE);
    properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, DEFAULT_COMPRESSION);
    properties.put(ProducerConfig.CLIENT_ID_CONFIG, "tokentrace-ship");
    layer(properties, PRODUCER_PREFIX);
    properties.putAll(PRODUCER_FIXED);
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    properties.put(
        ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return properties;
  }

  /**
   * Consumer properties: String keys, byte[] values, no group (the sink assigns partitions and
   * keeps its offsets in DuckDB), no auto commit, reading from the beginning when DuckDB has no
   * offset yet, and {@code read_committed}: a follow-mode shipper writes in transactions, and what
   * a killed shipper left uncommitted is shipped again by its successor, so it must never be read.
   */
  public Map<String, Object> consumerProperties() {
    Map<String, Object> properties = new HashMap<>();
    properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, DEFAULT_MAX_POLL_RECORDS);
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "tokentrace-sink");
    layer(properties, CONSUMER_PREFIX);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    properties.put(
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    properties.put(
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    return properties;
  }

  /** Admin client properties (topic creation). */
  public Map<String, Object> adminProperties() {
    Map<String, Object> properties = new HashMap<>();
    properties.put(CommonClientConfigs.CLIENT_ID_CONFIG, "tokentrace-admin");
    layer(properties, ADMIN_PREFIX);
    return properties;
  }

  private void layer(Map<String, Object> properties, String clientPrefix) {
    for (Map.Entry<String, String> entry : clientProperties.entrySet()) {
      if (!isClientSpecific(entry.getKey())) {
        properties.put(entry.getKey(), entry.getValue());
      }
    }
    for (Map.Entry<String, String> entry : clientProperties.entrySet()) {
      if (entry.getKey().startsWith(clientPrefix)) {
        properties.put(entry.getKey().substring(clientPrefix.length()), entry.getValue());
      }
    }
    properties.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, requireBootstrap());
  }

  private String requireBootstrap() {
    if (bootstrapServers == null) {
      throw new IllegalStateException(
          "no bootstrap servers: start an embedded broker and use withBootstrapServers first");
    }
    return bootstrapServers;
  }

  private static boolean isClientSpecific(String key) {
    return key.startsWith(PRODUCER_PREFIX)
        || key.startsWith(CONSUMER_PREFIX)
        || key.startsWith(ADMIN_PREFIX);
  }

  private static List<String> fixedSettingProblems(Map<String, String> properties) {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, String> reserved : RESERVED.entrySet()) {
      for (String prefix : List.of("", PRODUCER_PREFIX, CONSUMER_PREFIX)) {
        if (properties.containsKey(prefix + reserved.getKey())) {
          problems.add(
              "kafka config: "
                  + prefix
                  + reserved.getKey()
                  + " is not allowed: "
                  + reserved.getValue());
        }
      }
    }
    for (Map.Entry<String, String> fixed : PRODUCER_FIXED.entrySet()) {
      for (String key : List.of(fixed.getKey(), PRODUCER_PREFIX + fixed.getKey())) {
        String value = properties.get(key);
        if (value != null && !value.strip().equalsIgnoreCase(fixed.getValue())) {
          problems.add(
              "kafka config: "
                  + key
                  + "="
                  + value
                  + " is not allowed: tokentrace needs "
                  + fixed.getKey()
                  + "="
                  + fixed.getValue()
                  + " for exactly-once delivery");
        }
      }
    }
    return problems;
  }

  private static Map<String, String> readConfig(Path file) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "kafka config " + file + ": cannot read: " + FileProblems.describe(e), e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "kafka config " + file + ": malformed: " + e.getMessage(), e);
    }
    Map<String, String> values = new TreeMap<>();
    for (String key : properties.stringPropertyNames()) {
      values.put(key.strip(), properties.getProperty(key).strip());
    }
    return values;
  }
}
