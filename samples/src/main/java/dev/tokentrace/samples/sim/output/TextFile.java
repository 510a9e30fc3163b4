package dev.tokentrace.samples.sim.output;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One output file written line by line through a reused {@link StringBuilder}: {@link #begin()}
 * hands out the cleared builder, {@link #end()} writes it with a newline. Not thread-safe.
 */
final class TextFile implements Closeable {
  private final Path path;
  private final Writer writer;
  private final StringBuilder line = new StringBuilder(1024);

  private TextFile(Path path, Writer writer) {
    this.path = path;
    this.writer = writer;
  }

  static TextFile create(Path path) {
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Writer writer =
          new BufferedWriter(
              new OutputStreamWriter(Files.newOutputStream(path), StandardCharsets.UTF_8), 1 << 16);
      return new TextFile(path, writer);
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
