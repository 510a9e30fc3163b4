package dev.tokentrace.correlate.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Splits a byte stream into lines on {@code \n} (a trailing {@code \r} is dropped), with 1-based
 * line numbers and byte offsets, decoding each line as strict UTF-8: a line with invalid bytes is
 * flagged, not silently repaired. Lines longer than {@code maxBytes} are flagged and truncated
 * without being buffered whole. Not thread-safe.
 */
final class Utf8Lines {
  /** One line: its text (lenient decoding when flagged), where it starts, and what is wrong. */
  record Line(long number, long offset, String text, boolean invalidUtf8, boolean tooLong) {}

  private static final int BUFFER = 64 * 1024;

  private final InputStream in;
  private final int maxBytes;
  private final CharsetDecoder decoder =
      StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private final byte[] buffer = new byte[BUFFER];
  private int position;
  private int limit;
  private byte[] line = new byte[256];
  private int length;
  private long lineNumber;
  private long offset;

  Utf8Lines(InputStream in, int maxBytes) {
    this.in = in;
    this.maxBytes = maxBytes;
  }

  /** The next line, or null at the end of the stream. */
  @Nullable Line next() throws IOException {
    long start = offset;
    long lineBytes = 0;
    length = 0;
    boolean terminated = false;
    while (!terminated) {
      if (position >= limit && !fill()) {
        break;
      }
      int from = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      keep(from, position - from);
      lineBytes += position - from;
      if (position < limit) {
        position++; // the '\n'
        lineBytes++;
        terminated = true;
      }
    }
    if (!terminated && lineBytes == 0) {
      return null;
    }
    offset += lineBytes;
    lineNumber++;
    boolean tooLong = lineBytes - (terminated ? 1 : 0) > maxBytes;
    if (!tooLong && length > 0 && line[length - 1] == '\r') {
      length--;
    }
    return decode(start, tooLong);
  }

  private Line decode(long start, boolean tooLong) {
    try {
      String text = decoder.decode(ByteBuffer.wrap(line, 0, length)).toString();
      return new Line(lineNumber, start, text, false, tooLong);
    } catch (CharacterCodingException e) {
      // kept as a flag: the caller rejects the line as "invalid utf-8" with a lenient excerpt
      String text = new String(line, 0, length, StandardCharsets.UTF_8);
      return new Line(lineNumber, start, text, !tooLong, tooLong);
    }
  }

  private boolean fill() throws IOException {
    int read = in.read(buffer);
    position = 0;
    limit = Math.max(read, 0);
    return read > 0;
  }

  /** Keeps at most maxBytes of the line (a too-long line is only excerpted). */
  private void keep(int from, int count) {
    int room = Math.max(0, maxBytes - length);
    int take = Math.min(room, count);
    if (length + take > line.length) {
      line = Arrays.copyOf(line, Math.max(line.length * 2, length + take));
    }
    System.arraycopy(buffer, from, line, length, take);
    length += take;
  }
}
