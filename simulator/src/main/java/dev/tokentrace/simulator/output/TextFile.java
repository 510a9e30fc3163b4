package dev.tokentrace.simulator.output;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One output file written line by line through a reused {@link StringBuilder}: {@link #begin()}
 * hands out the cleared builder, {@link #end()} writes it with a newline. Not thread-safe.
 */
final class TextFile implements Closeable {
  private final Path path;
  private final Writer writer;
  private final StringBuilder line = new StringBuilder(1024);
  private final boolean live;

  private TextFile(Path path, Writer writer, boolean live) {
    this.path = path;
    this.writer = writer;
    this.live = live;
  }

  static TextFile create(Path path) {
    return open(path, false);
  }

  /**
   * A file a live server appends to: opened for append and flushed after every write, so a tailer
   * sees each line whole as soon as it is written, as with a real server's log.
   */
  static TextFile live(Path path) {
    return open(path, true);
  }

  private static TextFile open(Path path, boolean live) {
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Writer writer =
          new BufferedWriter(
              new OutputStreamWriter(
                  live
                      ? Files.newOutputStream(
                          path, StandardOpenOption.CREATE, StandardOpenOption.APPEND)
                      : Files.newOutputStream(path),
                  StandardCharsets.UTF_8),
              1 << 16);
      return new TextFile(path, writer, live);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + path, e);
    }
  }

  Path path() {
    return path;
  }

  /** The cleared line buffer. */
  StringBuilder begin() {
    line.setLength(0);
    return line;
  }

  /** Writes the line buffer and a newline. */
  void end() {
    line.append('\n');
    write(line);
  }

  /** Writes text as is (no newline added). */
  void write(CharSequence text) {
    try {
      writer.append(text);
      if (live) {
        writer.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
  }

  @Override
  public void close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close " + path, e);
    }
  }
}
