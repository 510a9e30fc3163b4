package dev.tokentrace.ingest.tail;

import dev.tokentrace.parse.LineSplitter;
import org.jspecify.annotations.Nullable;

/**
 * What a followed file's lines go to once its format is known: an engine's {@link SourceParser}, or
 * a client file's {@link ClientSourceParser}. Not thread-safe.
 */
public interface SourceLines extends LineSplitter.Receiver {
  /** The file ends (or a group is closed early): emit what is still pending. */
  void finish();

  /**
   * What a parser resumed after the lines read so far needs of them (a CSV header), or null: a
   * follower keeps it in its checkpoint (docs/follow.md#client-files).
   */
  default @Nullable String state() {
    return null;
  }
}
