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
}
