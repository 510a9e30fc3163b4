package dev.tokentrace.ingest.tail;

import dev.tokentrace.parse.LineSplitter;

/**
 * What a followed file's lines go to once its format is known: an engine's {@link SourceParser}, or
 * a client file's {@link ClientSourceParser}. Not thread-safe.
 */
public interface SourceLines extends LineSplitter.Receiver {
  /** The file ends (or a group is closed early): emit what is still pending. */
  void finish();
}
