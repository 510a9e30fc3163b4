package dev.tokentrace.clients;

import dev.tokentrace.event.SourcePosition;

/**
 * Receives what a {@link ClientTimingReader} made of a file. Implementations decide where it goes.
 */
public interface ClientReaderOutput {
  void row(ClientTiming timing);

  void rejected(ClientRejection rejection);

  /** A file-level note that skips no row (e.g. ignored extra columns); said once per file. */
  void warning(SourcePosition position, String message);

  /**
   * A line that holds no row and is no error (blank, a header, the rest of a file skipped for its
   * header), by a short rule name. Batch loads need not count them; a followed file reports every
   * line somewhere (docs/follow.md#client-files).
   */
  default void ignored(SourcePosition position, String rule) {}
}
