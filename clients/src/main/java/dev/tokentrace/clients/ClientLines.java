package dev.tokentrace.clients;

import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineSplitter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a whole file through a {@link ClientLineReader}: the batch path of line formats. */
final class ClientLines {
  private ClientLines() {}

  /**
   * Splits {@code file} into lines (at most {@code maxLineBytes} each) and gives every one to
   * {@code reader}, then finishes it.
   *
   * @throws UncheckedIOException naming the file when it cannot be read
   */
  static void readAll(
      Path file, int maxLineBytes, ClientLineReader reader, ClientReaderOutput sink) {
    String path = file.toString();
    try (InputStream in = Files.newInputStream(file)) {
      LineSplitter.Lines lines = LineSplitter.lines(in, maxLineBytes);
      for (LineSplitter.Line line = lines.next(); line != null; line = lines.next()) {
        SourcePosition position = new SourcePosition(path, line.number(), line.offset());
        if (line.tooLong()) {
          reader.invalid(position, tooLong(maxLineBytes), line.text(), sink);
        } else if (line.invalidUtf8()) {
          reader.invalid(position, "invalid utf-8", line.text(), sink);
        } else {
          reader.line(position, line.text(), sink);
        }
      }
      reader.finish(path, sink);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  static String tooLong(int maxLineBytes) {
    return "line too long (over " + maxLineBytes + " bytes)";
  }

  static String withoutBom(SourcePosition position, String text) {
    return position.line() == 1 && text.startsWith("\uFEFF") ? text.substring(1) : text;
  }
}
