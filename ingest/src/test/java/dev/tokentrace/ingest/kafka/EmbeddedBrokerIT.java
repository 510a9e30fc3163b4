package dev.tokentrace.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.utils.internals.Exit;
import org.junit.jupiter.api.Test;

final class EmbeddedBrokerIT {
  @Test
  void listensOnLoopbackAndDeletesItsDirectoryOnClose() {
    EmbeddedBroker broker = EmbeddedBroker.start();
    Path dir = broker.directory();
    try {
      assertThat(broker.bootstrapServers()).startsWith("127.0.0.1:");
      assertThat(dir.getFileName().toString()).startsWith("tokentrace-kraft-");
      assertThat(dir.resolve("data")).isDirectory();
      assertThat(broker.startupTime()).isPositive();
      assertThat(broker.fatalFault()).isEmpty();
    } finally {
      broker.close();
    }

    assertThat(Files.exists(dir)).isFalse();
    broker.close(); // a second close is harmless
  }

  @Test
  void aFatalFaultIsRecordedInsteadOfHaltingTheJvm() {
    try (EmbeddedBroker broker = EmbeddedBroker.start()) {
      // What Kafka's ProcessTerminatingFaultHandler does on a fatal fault; without the
      // interception this would end the test JVM.
      Exit.halt(1, "simulated fatal fault");
      Exit.exit(1, "simulated exit");

      assertThat(broker.fatalFault())
          .hasValue("kafka asked to halt the JVM with status 1: simulated fatal fault");
    }
    try (EmbeddedBroker next = EmbeddedBroker.start()) {
      assertThat(next.fatalFault()).isEmpty();
    }
  }
}
