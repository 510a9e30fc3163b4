package dev.tokentrace.loadgen;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * {@code --itl-out}: {@code request_id,itl_ms} with every gap between content chunks of a request,
 * {@code ;}-separated, in ms. Our client CSV has no column for them. Does nothing without a path.
 * Thread-safe.
 */
final class ItlCsv implements Closeable {
  static final String HEADER = "request_id,itl_ms";

  private final @Nullable Path path;
  private final @Nullable Writer writer;

  private ItlCsv(@Nullable Path path, @Nullable Writer writer) {
    this.path = path;
    this.writer = writer;
  }

  static ItlCsv create(@Nullable Path path) {
    if (path == null) {
      return new ItlCsv(null, null);
    }
    try {
      Writer writer = new BufferedWriter(Files.newBufferedWriter(path, StandardCharsets.UTF_8));
      writer.write(HEADER + "\n");
      return new ItlCsv(path, writer);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + path, e);
    }
  }

  /** The row of one outcome, without line end. */
  static String row(Outcome outcome) {
    StringBuilder line = new StringBuilder(outcome.requestId()).append(',');
    double[] itls = outcome.itlsMs();
    for (int i = 0; i < itls.length; i++) {
      if (i > 0) {
        line.append(';');
      }
      line.append(String.format(Locale.ROOT, "%.3f", itls[i]));
    }
    return line.toString();
  }

  synchronized void write(Outcome outcome) {
    if (writer == null) {
      return;
    }
    try {
      writer.write(row(outcome));
      writer.write('\n');
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
  }

  @Override
  public synchronized void close() {
    if (writer == null) {
      return;
    }
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close " + path, e);
    }
  }
}
