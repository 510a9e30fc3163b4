package dev.tokentrace.ingest.tail;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineSplitter;
import dev.tokentrace.parse.Rejection;

/**
 * Where parsed output goes: Kafka for {@code ship} and {@code ingest}, stdout for {@code parse}, a
 * list in tests. Unlike the parser-facing {@link dev.tokentrace.parse.ParseOutput}, a rejection
 * comes with the raw bytes of its line, which the rejects topic carries.
 */
public interface TailOutput {
  void event(EngineEvent event);

  /**
   * @param rawLine the rejected line as read, at most {@link LineSplitter#MAX_RAW_BYTES} bytes; the
   *     excerpt's bytes when the parser rejected a line it had already passed (a grouped record)
   */
  void rejected(Rejection rejection, byte[] rawLine);

  /** A line the parser ignored by a named rule; counted by the caller, usually nothing to do. */
  default void ignored(SourcePosition position, String rule) {}
}
