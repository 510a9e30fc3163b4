package dev.tokentrace.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Issue [2.2] item 3: a drain that read the end offsets before the last transaction's commit
 * markers were written must not end before that transaction's records.
 */
final class DrainTest {
  private static final TopicPartition EVENTS = new TopicPartition("tokentrace.events", 0);

  @Test
  void waitsForTheShippersCommittedTransactionsBeyondStaleEndOffsets() {
    MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    consumer.assign(List.of(EVENTS));
    // read_committed end offset as seen before the markers: the transaction's 6 records not yet
    consumer.updateEndOffsets(Map.of(EVENTS, 0L));
    consumer.seek(EVENTS, 0);
    Drain drain = new Drain(Duration.ofMinutes(1));

    assertThat(drain.caughtUp(consumer, List.of(EVENTS), Map.of(EVENTS, 6L))).isFalse();

    consumer.seek(EVENTS, 6); // the records arrived once the markers were written
    assertThat(drain.caughtUp(consumer, List.of(EVENTS), Map.of(EVENTS, 6L))).isTrue();
  }

  @Test
  void endOffsetsAloneStillDecideWithoutAShipper() {
    MockConsumer<String, byte[]> consumer = new MockConsumer<>("earliest");
    consumer.assign(List.of(EVENTS));
    consumer.updateEndOffsets(Map.of(EVENTS, 3L));
    consumer.seek(EVENTS, 0);
    Drain drain = new Drain(Duration.ofMinutes(1));

    assertThat(drain.caughtUp(consumer, List.of(EVENTS))).isFalse();
    consumer.seek(EVENTS, 3);
    assertThat(drain.caughtUp(consumer, List.of(EVENTS))).isTrue();
  }
}
