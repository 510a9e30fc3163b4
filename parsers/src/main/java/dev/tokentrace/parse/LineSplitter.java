package dev.tokentrace.parse;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Splits a byte stream into lines. Pure: the caller reads (a whole file, or a live file's new
 * bytes) and feeds chunks of any size; complete lines come out in order with their 1-based number
 * and the byte offset of their first byte.
 *
 * <ul>
 *   <li>A line ends at {@code \n}; a {@code \r} right before it is removed ({@code \r\n}), as is a
 *       {@code \r} at the very end of the input ({@link #finish}). A lone {@code \r} inside a line
 *       is kept: the parser decides (docs/formats/vllm.md#multi-line-records).
 *   <li>Bytes after the last {@code \n} are held until more input completes them, so a live file's
 *       half-written last line waits for its newline; {@link #finish} delivers them as a last line
 *       when the input has really ended (batch mode).
 *   <li>Lines are decoded as strict UTF-8. A line with invalid UTF-8, a NUL byte (binary junk) or
 *       more than {@code maxLineBytes} bytes becomes an {@link Receiver#invalid} call instead,
 *       never an exception. An overlong line is skipped to its newline while only its first {@value
 *       #MAX_RAW_BYTES} bytes are kept, so memory stays bounded whatever the input.
 * </ul>
 *
 * <p>{@link #nextOffset()} and {@link #nextLineNumber()} say where the first undelivered line
 * starts: the resume point of a checkpoint. {@link #lines} reads a whole stream line by line on top
 * of the same splitting (the client timing readers). Not thread-safe.
 */
public final class LineSplitter {
  /**
   * Longest accepted line, 8 MiB. Real log lines are below a few KiB and an OTLP export line with a
   * large span batch below 1 MiB; a longer "line" is binary junk or a runaway dump, and rejecting
   * it keeps one bad file from exhausting the heap.
   */
  public static final int DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;

  public static final String MAX_LINE_BYTES_DOC =
      "longest accepted line in bytes; a longer line is rejected (and skipped without being held in"
          + " memory)";

  /**
   * How many leading bytes of a rejected line travel with its rejection (to the rejects topic):
   * enough to see what the line was, far below Kafka's default 1 MiB record limit.
   */
  public static final int MAX_RAW_BYTES = 64 * 1024;

  private static final int INITIAL_BUFFER = 8 * 1024;

  /** Buffers grown past this by one long line are released after it. */
  private static final int RETAINED_BUFFER = 1024 * 1024;

  /** Receives what the splitter made of each line. */
  public interface Receiver {
    /** A complete, valid line without its terminator. */
    void line(String text, long number, long offset);

    /**
     * A line that cannot be a log line.
     *
     * @param reason short and stable: {@code line too long (N bytes > M)}, {@code invalid utf-8 at
     *     byte N}, {@code binary data (nul byte at byte N)} (N counted from 1 within the line)
     * @param raw the line's first bytes, at most {@value #MAX_RAW_BYTES}
     */
    void invalid(long number, long offset, String reason, byte[] raw);
  }

  private final int maxLineBytes;
  private final CharsetDecoder decoder =
      UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT);
  private CharBuffer chars = CharBuffer.allocate(INITIAL_BUFFER);
  private byte[] pending = new byte[INITIAL_BUFFER];

  /** Bytes of the current line held in {@link #pending}: all of them unless it is overlong. */
  private int pendingLength;

  /** Bytes of the current (incomplete) line seen so far, its {@code \n} excluded. */
  private long lineLength;

  private boolean overlong;
  private byte lastByte;
  private long lineOffset;
  private long lineNumber;

  /** A splitter for input that starts at offset 0 with line 1. */
  public LineSplitter(int maxLineBytes) {
    this(maxLineBytes, 0, 1);
  }

  /** A splitter resuming at a checkpoint: the next byte fed is at {@code offset}. */
  public LineSplitter(int maxLineBytes, long offset, long lineNumber) {
    if (maxLineBytes < 1) {
      throw new IllegalArgumentException("maxLineBytes must be >= 1: " + maxLineBytes);
    }
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0: " + offset);
    }
    if (lineNumber < 1) {
      throw new IllegalArgumentException("lineNumber must be >= 1: " + lineNumber);
    }
    this.maxLineBytes = maxLineBytes;
    this.lineOffset = offset;
    this.lineNumber = lineNumber;
  }

  /** Splits {@code length} bytes from {@code bytes[from]} on; holds an unfinished last line. */
  public void feed(byte[] bytes, int from, int length, Receiver receiver) {
    Objects.checkFromIndexSize(from, length, bytes.length);
    int end = from + length;
    int start = from;
    while (start < end) {
      int newline = indexOfNewline(bytes, start, end);
      if (newline < 0) {
        hold(bytes, start, end);
        return;
      }
      complete(bytes, start, newline, receiver);
      start = newline + 1;
    }
  }

  /**
   * The input has ended (batch mode): a held last line without {@code \n} is delivered as a line (a
   * trailing {@code \r} removed). Never call this for a live file that may still grow.
   */
  public void finish(Receiver receiver) {
    if (lineLength > 0) {
      deliverPending(receiver);
      advance(lineLength);
    }
  }

  /**
   * The input broke off (a corrupt or truncated gzip stream): the held partial line, or an empty
   * one at the current position, is rejected with {@code reason}.
   */
  public void finishBroken(Receiver receiver, String reason) {
    int kept = Math.min(pendingLength, MAX_RAW_BYTES);
    receiver.invalid(lineNumber, lineOffset, reason, Arrays.copyOf(pending, kept));
    advance(lineLength);
  }

  /** Offset of the first byte not yet delivered as part of a line: where to resume reading. */
  public long nextOffset() {
    return lineOffset;
  }

  /** Number of the line that starts at {@link #nextOffset()}. */
  public long nextLineNumber() {
    return lineNumber;
  }

  /** Bytes of an unfinished last line held back (or skipped, if overlong) so far. */
  public long pendingBytes() {
    return lineLength;
  }

  private void complete(byte[] bytes, int start, int newline, Receiver receiver) {
    int length = newline - start;
    if (lineLength == 0) {
      boolean carriageReturn = length > 0 && bytes[newline - 1] == '\r';
      deliver(bytes, start, length, length, carriageReturn, receiver);
      advance(length + 1L);
    } else {
      hold(bytes, start, newline);
      long consumed = lineLength + 1;
      deliverPending(receiver);
      advance(consumed);
    }
  }

  private void deliverPending(Receiver receiver) {
    deliver(pending, 0, pendingLength, lineLength, lastByte == '\r', receiver);
  }

  /**
   * @param held bytes of the line at hand in {@code bytes}
   * @param total bytes of the whole line (more than {@code held} only when overlong)
   * @param carriageReturn whether the line's last byte is a {@code \r} to drop
   */
  private void deliver(
      byte[] bytes, int from, int held, long total, boolean carriageReturn, Receiver receiver) {
    long length = carriageReturn ? total - 1 : total;
    if (length > maxLineBytes) {
      String reason = "line too long (" + length + " bytes > " + maxLineBytes + ")";
      byte[] raw = Arrays.copyOfRange(bytes, from, from + Math.min(held, MAX_RAW_BYTES));
      receiver.invalid(lineNumber, lineOffset, reason, raw);
      return;
    }
    decode(bytes, from, (int) length, receiver);
  }

  private void decode(byte[] bytes, int from, int length, Receiver receiver) {
    int end = from + length;
    boolean ascii = true;
    for (int i = from; i < end; i++) {
      byte value = bytes[i];
      if (value == 0) {
        reject(
            bytes, from, length, "binary data (nul byte at byte " + (i - from + 1) + ")", receiver);
        return;
      }
      ascii &= value > 0;
    }
    if (ascii) {
      // ISO-8859-1 of pure ASCII is a plain copy into a compact Latin-1 string.
      receiver.line(new String(bytes, from, length, ISO_8859_1), lineNumber, lineOffset);
      return;
    }
    decodeUtf8(bytes, from, length, receiver);
  }

  private void decodeUtf8(byte[] bytes, int from, int length, Receiver receiver) {
    if (chars.capacity() < length) {
      chars = CharBuffer.allocate(length);
    }
    chars.clear();
    ByteBuffer input = ByteBuffer.wrap(bytes, from, length);
    CoderResult result = decoder.reset().decode(input, chars, true);
    if (result.isUnderflow()) {
      result = decoder.flush(chars);
    }
    if (result.isError()) {
      String reason = "invalid utf-8 at byte " + (input.position() - from + 1);
      reject(bytes, from, length, reason, receiver);
      return;
    }
    chars.flip();
    receiver.line(chars.toString(), lineNumber, lineOffset);
  }

  private void reject(byte[] bytes, int from, int length, String reason, Receiver receiver) {
    byte[] raw = Arrays.copyOfRange(bytes, from, from + Math.min(length, MAX_RAW_BYTES));
    receiver.invalid(lineNumber, lineOffset, reason, raw);
  }

  /** Keeps bytes of the current line; past the limit only its first bytes are kept. */
  private void hold(byte[] bytes, int start, int end) {
    int count = end - start;
    if (count == 0) {
      return;
    }
    lineLength += count;
    lastByte = bytes[end - 1];
    if (!overlong && lineLength > maxLineBytes + 1L) {
      // + 1: a final \r may still turn out to be the first half of \r\n, which is no content.
      overlong = true;
      pendingLength = Math.min(pendingLength, MAX_RAW_BYTES);
      pending = Arrays.copyOf(pending, MAX_RAW_BYTES);
    }
    int room = overlong ? MAX_RAW_BYTES - pendingLength : count;
    int kept = Math.min(count, room);
    if (kept > 0) {
      ensureCapacity(pendingLength + kept);
      System.arraycopy(bytes, start, pending, pendingLength, kept);
      pendingLength += kept;
    }
  }

  private void ensureCapacity(int needed) {
    if (pending.length < needed) {
      int grown = (int) Math.min(Math.max(needed, 2L * pending.length), maxLineBytes + 1L);
      pending = Arrays.copyOf(pending, Math.max(grown, needed));
    }
  }

  private void advance(long consumed) {
    lineOffset += consumed;
    lineNumber++;
    lineLength = 0;
    pendingLength = 0;
    overlong = false;
    lastByte = 0;
    if (pending.length > RETAINED_BUFFER) {
      pending = new byte[INITIAL_BUFFER];
    }
    if (chars.capacity() > RETAINED_BUFFER) {
      chars = CharBuffer.allocate(INITIAL_BUFFER);
    }
  }

  private static int indexOfNewline(byte[] bytes, int from, int end) {
    for (int i = from; i < end; i++) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  /**
   * Reads {@code in} to its end one {@link Line} at a time, split and checked as above ({@link
   * #finish} at the end of the stream). Memory: one read buffer, the lines of one buffer, and a
   * line up to {@code maxLineBytes}.
   */
  public static Lines lines(InputStream in, int maxLineBytes) {
    return new Lines(in, new LineSplitter(maxLineBytes));
  }

  /**
   * One line read by {@link Lines}: its text, or for a rejected line the lenient decoding of its
   * first bytes (at most {@value #MAX_RAW_BYTES}) with what is wrong with it.
   *
   * @param invalidUtf8 the line is not valid UTF-8
   * @param tooLong the line has more than {@code maxLineBytes} bytes
   */
  public record Line(long number, long offset, String text, boolean invalidUtf8, boolean tooLong) {}

  /** Pull-style reading of a stream: {@link #next()} until it returns null. Not thread-safe. */
  public static final class Lines {
    private static final int READ_BUFFER = 64 * 1024;

    private final InputStream in;
    private final LineSplitter splitter;
    private final byte[] buffer = new byte[READ_BUFFER];
    private final ArrayDeque<Line> ready = new ArrayDeque<>();
    private final Receiver receiver =
        new Receiver() {
          @Override
          public void line(String text, long number, long offset) {
            ready.add(new Line(number, offset, text, false, false));
          }

          @Override
          public void invalid(long number, long offset, String reason, byte[] raw) {
            ready.add(invalidLine(number, offset, reason, raw));
          }
        };
    private boolean ended;

    private Lines(InputStream in, LineSplitter splitter) {
      this.in = Objects.requireNonNull(in, "in is null");
      this.splitter = splitter;
    }

    /** The next line, or null at the end of the stream. */
    public @Nullable Line next() throws IOException {
      while (ready.isEmpty() && !ended) {
        int read = in.read(buffer);
        if (read < 0) {
          ended = true;
          splitter.finish(receiver);
        } else {
          splitter.feed(buffer, 0, read, receiver);
        }
      }
      return ready.poll();
    }

    /**
     * A NUL byte is binary junk in a log, but a client file's reader decides for itself: a line
     * that is valid UTF-8 apart from it comes as text, as any other line.
     */
    private static Line invalidLine(long number, long offset, String reason, byte[] raw) {
      boolean tooLong = reason.startsWith("line too long");
      if (!tooLong && reason.startsWith("binary data")) {
        try {
          String text =
              UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT)
                  .decode(ByteBuffer.wrap(raw))
                  .toString();
          return new Line(number, offset, text, false, false);
        } catch (CharacterCodingException e) {
          // not UTF-8 either: flagged as such below
        }
      }
      return new Line(number, offset, new String(raw, UTF_8), !tooLong, tooLong);
    }
  }
}
