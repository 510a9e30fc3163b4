package dev.tokentrace.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.kafka.KafkaUnavailableException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue [2.2] item 7: the sink's metadata wait (describing the topics, the consumer's calls) is
 * bounded by the caller's connect timeout and ends in one line naming the servers, instead of
 * Kafka's own 60 s and a stack trace. No broker: the port is closed.
 */
final class SinkUnreachableIT {
  @TempDir Path dir;

  @Test
  @Timeout(40) // a guard against a hang, not a measurement
  void anUnreachableClusterIsNamedAfterTheConnectTimeout() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    KafkaSettings kafka = KafkaSettings.defaults().withBootstrapServers("127.0.0.1:" + port);
    Path db = dir.resolve("sink.duckdb");

    assertThatThrownBy(
            () ->
                KafkaToDuckDb.open(
                    SinkSettings.defaults(db), kafka, Clock.systemUTC(), Duration.ofSeconds(2)))
        .isInstanceOf(KafkaUnavailableException.class)
        .hasMessage(
            "kafka: the cluster at 127.0.0.1:"
                + port
                + " is unreachable: no answer within 2 s (--connect-timeout); what was committed"
                + " before is in the DuckDB file");
    assertThat(Files.exists(db)).as("nothing opened before Kafka answered").isFalse();
  }
}
