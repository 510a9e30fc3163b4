package dev.tokentrace.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class KafkaSettingsTest {
  @TempDir Path dir;

  @Test
  void defaults() {
    KafkaSettings settings = KafkaSettings.defaults();

    assertThat(settings.bootstrapServers()).isNull();
    assertThat(settings.embedded()).isTrue();
    assertThat(settings.partitions()).isEqualTo(3);
    assertThat(settings.topicPrefix()).isEqualTo("tokentrace");
    assertThat(settings.topics().events()).isEqualTo("tokentrace.events");
    assertThat(settings.topics().rejects()).isEqualTo("tokentrace.rejects");
    assertThat(settings.clientProperties()).isEmpty();
    assertThat(KafkaSettings.from(null, null, null, null)).isEqualTo(settings);

    KafkaSettings connected = settings.withBootstrapServers("127.0.0.1:9092");
    assertThat(connected.producerProperties())
        .containsOnly(
            entry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092"),
            entry(ProducerConfig.CLIENT_ID_CONFIG, "tokentrace-ship"),
            entry(ProducerConfig.ACKS_CONFIG, "all"),
            entry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true"),
            entry(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4"),
            entry(ProducerConfig.LINGER_MS_CONFIG, 5),
            entry(ProducerConfig.BATCH_SIZE_CONFIG, 262_144),
            entry(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()),
            entry(
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
    assertThat(connected.consumerProperties())
        .containsOnly(
            entry(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092"),
            entry(ConsumerConfig.CLIENT_ID_CONFIG, "tokentrace-sink"),
            entry(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000),
            entry(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
            entry(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
            entry(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
            entry(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()),
            entry(
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG,
                ByteArrayDeserializer.class.getName()));
    assertThat(connected.adminProperties())
        .containsOnly(
            entry(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092"),
            entry(AdminClientConfig.CLIENT_ID_CONFIG, "tokentrace-admin"));
    Map<String, Object> batch = new java.util.HashMap<>(connected.producerProperties());
    batch.remove(ProducerConfig.LINGER_MS_CONFIG);
    assertThat(connected.transactionalProducerProperties("tokentrace-ship-host-1"))
        .containsAllEntriesOf(batch)
        .contains(
            entry(ProducerConfig.LINGER_MS_CONFIG, 50),
            entry(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "tokentrace-ship-host-1"),
            entry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 60_000),
            entry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000),
            entry(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20))
        .hasSize(connected.producerProperties().size() + 4);
    assertThat(settings.topics().checkpoints()).isEqualTo("tokentrace.checkpoints");
  }

  @Test
  void explicitMapping() throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("client.properties"),
            "security.protocol=SASL_SSL\n"
                + "sasl.mechanism=PLAIN\n"
                + "ssl.truststore.location=/etc/kafka/truststore.jks\n"
                + "producer.linger.ms=50\n"
                + "consumer.max.poll.records=100\n"
                + "admin.request.timeout.ms=9000\n");

    KafkaSettings settings = KafkaSettings.from("broker-1:9093,broker-2:9093", 12, "lab", config);

    assertThat(settings.bootstrapServers()).isEqualTo("broker-1:9093,broker-2:9093");
    assertThat(settings.embedded()).isFalse();
    assertThat(settings.partitions()).isEqualTo(12);
    assertThat(settings.topics().events()).isEqualTo("lab.events");
    assertThat(settings.topics().rejects()).isEqualTo("lab.rejects");
    Map<String, String> shared =
        Map.of(
            "bootstrap.servers", "broker-1:9093,broker-2:9093",
            "security.protocol", "SASL_SSL",
            "sasl.mechanism", "PLAIN",
            "ssl.truststore.location", "/etc/kafka/truststore.jks");
    assertThat(settings.producerProperties())
        .containsAllEntriesOf(shared)
        .containsEntry("linger.ms", "50")
        .doesNotContainKeys("max.poll.records", "request.timeout.ms", "producer.linger.ms");
    assertThat(settings.consumerProperties())
        .containsAllEntriesOf(shared)
        .containsEntry("max.poll.records", "100")
        .doesNotContainKeys("linger.ms", "request.timeout.ms", "consumer.max.poll.records");
    assertThat(settings.adminProperties())
        .containsAllEntriesOf(shared)
        .containsEntry("request.timeout.ms", "9000")
        .doesNotContainKeys("linger.ms", "max.poll.records");
  }

  @Test
  void takesBootstrapServersFromTheConfigFileWhenNoOptionGivesThem() throws IOException {
    Path config = Files.writeString(dir.resolve("c.properties"), "bootstrap.servers=remote:9092\n");

    assertThat(KafkaSettings.from(null, null, null, config).bootstrapServers())
        .isEqualTo("remote:9092");
    assertThat(KafkaSettings.from("local:9092", null, null, config).producerProperties())
        .containsEntry("bootstrap.servers", "local:9092");
  }

  @Test
  void refusesConfigThatWeakensDeliveryGuarantees() throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("c.properties"), "acks=1\nproducer.enable.idempotence=false\n");

    assertThatThrownBy(() -> KafkaSettings.from(null, null, null, config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("kafka config: acks=1 is not allowed")
        .hasMessageContaining("producer.enable.idempotence=false is not allowed");
  }

  @Test
  void refusesConfigThatSetsWhatTokentraceSetsItself() throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("c.properties"),
            "producer.transactional.id=mine\nconsumer.isolation.level=read_uncommitted\n");

    assertThatThrownBy(() -> KafkaSettings.from(null, null, null, config))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "kafka config: producer.transactional.id is not allowed: tokentrace derives it from"
                + " --shipper-id")
        .hasMessageContaining("kafka config: consumer.isolation.level is not allowed");
  }

  @Test
  void aConfigFileMayTuneTheTransactionsOfFollowMode() throws IOException {
    Path config =
        Files.writeString(
            dir.resolve("c.properties"),
            "producer.transaction.timeout.ms=30000\nproducer.max.block.ms=5000\n");

    assertThat(
            KafkaSettings.from("b:9092", null, null, config)
                .transactionalProducerProperties("tokentrace-ship-x"))
        .containsEntry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "30000")
        .containsEntry(ProducerConfig.MAX_BLOCK_MS_CONFIG, "5000");
  }

  @Test
  void neverShowsClientPropertyValuesInItsStringForm() {
    KafkaSettings settings =
        new KafkaSettings(
            "b:9092",
            3,
            "tokentrace",
            Map.of("sasl.jaas.config", "PlainLoginModule required password=\"s3cret\";"));

    assertThat(settings.toString())
        .isEqualTo(
            "KafkaSettings[bootstrapServers=b:9092, partitions=3, topicPrefix=tokentrace,"
                + " clientProperties=[sasl.jaas.config]]")
        .doesNotContain("s3cret");
  }

  @Test
  void namesAnUnreadableConfigFile() {
    Path missing = dir.resolve("nope.properties");

    assertThatThrownBy(() -> KafkaSettings.from(null, null, null, missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kafka config " + missing + ": cannot read: no such file");
  }

  @Test
  void validatesItsValues() {
    assertThatThrownBy(() -> KafkaSettings.from(null, 0, null, null))
        .hasMessage("partitions must be >= 1: 0");
    assertThatThrownBy(() -> KafkaSettings.from(" ", null, null, null))
        .hasMessage("bootstrapServers is blank");
    assertThatThrownBy(() -> KafkaSettings.from(null, null, "bad prefix", null))
        .hasMessage("topic prefix must match [a-zA-Z0-9._-]+: 'bad prefix'");
    assertThatThrownBy(() -> KafkaSettings.defaults().producerProperties())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("no bootstrap servers");
  }
}
