package dev.tokentrace.ingest.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.junit.jupiter.api.Test;

final class EventRecordsTest {
  private static final SourcePosition SOURCE = new SourcePosition("samples/x/server.log", 42, 4096);
  private static final Instant TS = Instant.parse("2026-02-13T11:33:33Z");

  @Test
  void requestEventsAreKeyedByRequestAndTheRestByInstance() {
    assertThat(
            EventRecords.key(
                new RequestArrived(Engine.VLLM, "i", TS, SOURCE, "chatcmpl-k", "k", null, null)))
        .isEqualTo("k");
    assertThat(
            EventRecords.key(
                new ServerNotice(
                    Engine.VLLM, "vllm-7", TS, SOURCE, "INFO", ServerNotice.Kind.STARTUP, "m")))
        .isEqualTo("vllm-7");
  }
}
