package dev.tokentrace.clients;

import dev.tokentrace.event.SourcePosition;
import org.jspecify.annotations.Nullable;

/**
 * Reads one client file a line at a time, as it grows ({@code ship --follow}); the batch {@link
 * ClientTimingReader#read} of the same format runs its lines through the same object, so a file
 * read whole and the same file followed give the same rows and rejections. One instance per file,
 * not thread-safe. Every line is reported: as rows, a rejection, or {@link
 * ClientReaderOutput#ignored} (blank lines, a header, the rest of a file skipped for its header).
 *
 * <p>What the reader learnt from earlier lines and needs for later ones (a CSV's header) is its
 * {@link #state()}: a shipper stores it with the file's read position and gives it back to the
 * reader of a resumed file (docs/follow.md#client-files).
 */
public interface ClientLineReader {
  /**
   * One line, without its terminator.
   *
   * @param position where the line starts (path, line number, byte offset)
   */
  void line(SourcePosition position, String text, ClientReaderOutput sink);

  /**
   * A line that cannot be read as text: too long, or not UTF-8 ({@code reason}, e.g. {@code invalid
   * utf-8}); {@code excerpt} is what may be shown of it.
   */
  void invalid(SourcePosition position, String reason, String excerpt, ClientReaderOutput sink);

  /**
   * End of a file read whole (batch): reports what only the end shows (an empty file). A followed
   * file never ends.
   */
  default void finish(String path, ClientReaderOutput sink) {}

  /**
   * What a resumed reader needs from the lines before its resume point, or null when nothing (a
   * CSV's header line). Plain text; never holds prompt or response text.
   */
  default @Nullable String state() {
    return null;
  }
}
