package dev.tokentrace.ingest.tail;

import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
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

  /**
   * A row of a followed client or gateway file (docs/follow.md#client-files). Only follow-mode
   * outputs take them; the others refuse.
   */
  default void client(ClientTiming.Stored row) {
    throw new IllegalStateException(getClass().getSimpleName() + " takes no client rows");
  }

  /**
   * A rejected line of a followed client file.
   *
   * @param rawLine what the rejects topic carries of the line
   */
  default void clientRejected(ClientRejection rejection, byte[] rawLine) {
    throw new IllegalStateException(getClass().getSimpleName() + " takes no client rows");
  }
}
