package dev.tokentrace.ingest.tail;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.List;

/** Keeps everything an {@link TailOutput} receives. */
final class CollectingSink implements TailOutput {
  final List<EngineEvent> events = new ArrayList<>();
  final List<Rejection> rejections = new ArrayList<>();
  final List<byte[]> raws = new ArrayList<>();

  @Override
  public void event(EngineEvent event) {
    events.add(event);
  }

  @Override
  public void rejected(Rejection rejection, byte[] rawLine) {
    rejections.add(rejection);
    raws.add(rawLine);
  }

  /** {@code line@offset:source-position} of every event, for compact assertions. */
  List<String> eventPositions() {
    List<String> positions = new ArrayList<>();
    for (EngineEvent event : events) {
      positions.add(event.source().line() + "@" + event.source().offset());
    }
    return positions;
  }

  List<String> rejectionMessages() {
    List<String> messages = new ArrayList<>();
    for (Rejection rejection : rejections) {
      messages.add(rejection.message() + " @" + rejection.position().offset());
    }
    return messages;
  }
}
