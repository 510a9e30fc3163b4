package dev.tokentrace.ingest.tail;

import dev.tokentrace.parse.LineSplitter;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reads a whole log file through a {@link LineSplitter} (batch mode: a last line without newline is
 * still a line). Gzip files (rotated logs, recognized by their magic bytes, not their name) are
 * decompressed on the fly; their line offsets are offsets in the decompressed text. A truncated or
 * corrupt gzip stream ends the file with a rejection {@value #CORRUPT_GZIP}, not an exception.
 */
public final class LogFileReader {
  public static final String CORRUPT_GZIP = "corrupt gzip stream";

  static final int BUFFER_BYTES = 64 * 1024;

  private static final int GZIP_MAGIC_1 = 0x1f;
  private static final int GZIP_MAGIC_2 = 0x8b;

  private LogFileReader() {}

  /**
   * Feeds every line of {@code file} to {@code receiver}.
   *
   * @return the bytes read (after decompression)
   * @throws IOException when the file cannot be opened or read (missing, no permission, a
   *     directory); lines read before the failure have been delivered
   */
  public static long read(Path file, int maxLineBytes, LineSplitter.Receiver receiver)
      throws IOException {
    LineSplitter splitter = new LineSplitter(maxLineBytes);
    try (PushbackInputStream raw = new PushbackInputStream(Files.newInputStream(file), 2)) {
      return startsWithGzipMagic(raw)
          ? readGzip(raw, splitter, receiver)
          : readAll(raw, splitter, receiver);
    }
  }

  private static long readGzip(
      InputStream raw, LineSplitter splitter, LineSplitter.Receiver receiver) throws IOException {
    try (InputStream input = new GZIPInputStream(raw, BUFFER_BYTES)) {
      return readAll(input, splitter, receiver);
    } catch (ZipException | EOFException e) {
      // Bad input, not a failure to read: a rotated file cut off mid-write, or not gzip after all.
      splitter.finishBroken(receiver, CORRUPT_GZIP);
      return splitter.nextOffset();
    }
  }

  private static long readAll(
      InputStream input, LineSplitter splitter, LineSplitter.Receiver receiver) throws IOException {
    byte[] buffer = new byte[BUFFER_BYTES];
    long total = 0;
    for (int count = input.read(buffer); count != -1; count = input.read(buffer)) {
      splitter.feed(buffer, 0, count, receiver);
      total += count;
    }
    splitter.finish(receiver);
    return total;
  }

  private static boolean startsWithGzipMagic(PushbackInputStream input) throws IOException {
    int first = input.read();
    if (first == -1) {
      return false;
    }
    int second = input.read();
    if (second != -1) {
      input.unread(second);
    }
    input.unread(first);
    return first == GZIP_MAGIC_1 && second == GZIP_MAGIC_2;
  }
}
