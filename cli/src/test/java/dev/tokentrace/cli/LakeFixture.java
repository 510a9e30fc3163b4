package dev.tokentrace.cli;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * Writes parsed events into a lake through the lake writer, as a sink does (without Kafka: one
 * partition whose offsets are the events' positions), in as many commits as the test wants.
 */
final class LakeFixture implements AutoCloseable {
  private static final LakePartition PARTITION = new LakePartition("tokentrace.events", 0);
  private final LakeWriter writer;
  private long offset;

  LakeFixture(Path lake) {
    writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "test"), "256MB", 1, Clock.systemUTC());
    writer.recover(PARTITION, "test-topic");
    writer.startAt(PARTITION, 0);
  }

  /** Appends the events and commits them as one lake file per table. */
  void commit(List<EngineEvent> events) throws Exception {
    for (EngineEvent event : events) {
      writer.append(PARTITION, EventTables.of(event), event);
      offset++;
    }
    writer.advance(PARTITION, offset);
    writer.flush();
  }

  @Override
  public void close() {
    writer.close();
  }
}
