package dev.tokentrace.cli;

import dev.tokentrace.app.Shipping;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** Kafka connection options shared by ship, sink, ingest and demo. */
final class KafkaOptions {
  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT[,...]",
      description = KafkaSettings.BOOTSTRAP_SERVERS_DOC)
  @Nullable String bootstrapServers;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description = KafkaSettings.PARTITIONS_DOC,
      defaultValue = "" + KafkaSettings.DEFAULT_PARTITIONS)
  @Nullable Integer partitions;

  @Option(
      names = "--topic-prefix",
      paramLabel = "PREFIX",
      description = KafkaSettings.TOPIC_PREFIX_DOC,
      defaultValue = KafkaSettings.DEFAULT_TOPIC_PREFIX)
  @Nullable String topicPrefix;

  @Option(
      names = "--kafka-config",
      paramLabel = "FILE",
      description = KafkaSettings.KAFKA_CONFIG_DOC)
  @Nullable Path kafkaConfig;

  @Option(
      names = "--connect-timeout",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description =
          "how long a run that ends by itself (batch, --once) waits for an unreachable Kafka"
              + " cluster before it gives up with exit 1; a following shipper waits on, saying so",
      defaultValue = "30s")
  Duration connectTimeout = Shipping.DEFAULT_CONNECT_TIMEOUT;

  KafkaSettings settings() {
    return KafkaSettings.from(bootstrapServers, partitions, topicPrefix, kafkaConfig);
  }

  /** For commands that make no sense against a broker that dies with them (ship, sink). */
  KafkaSettings requireExternal(String command) {
    KafkaSettings settings = settings();
    if (settings.bootstrapServers() == null) {
      throw new UsageException(
          command
              + " needs a running broker: give --bootstrap-servers (or bootstrap.servers in"
              + " --kafka-config); 'tokentrace broker' starts one locally, and 'tokentrace ingest'"
              + " ships and sinks in one process on an embedded broker");
    }
    return settings;
  }
}
