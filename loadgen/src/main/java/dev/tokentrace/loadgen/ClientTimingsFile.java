package dev.tokentrace.loadgen;

import dev.tokentrace.measure.ClientCsv;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * The client CSV a run writes ({@link ClientCsv}, as {@code clients --format csv} reads it): one
 * row per request in completion order. {@code start_ts} is when the client issued the request;
 * {@code ttft_ms} and {@code e2e_ms} run from it and include {@code client_queue_ms}. A failed
 * request keeps its status and leaves TTFT and tokens empty. Rows are flushed as written, so a run
 * cut short keeps what it measured. Thread-safe.
 */
final class ClientTimingsFile implements Closeable {
  private final Path path;
  private final Writer writer;
  private final boolean matrix;
  private Columns columns = new Columns(1, 0, null);

  private ClientTimingsFile(Path path, Writer writer, boolean matrix) {
    this.path = path;
    this.writer = writer;
    this.matrix = matrix;
  }

  /**
   * Creates (or replaces) a file of one run without a sweep whose rows share these columns
   * (concurrency 0 = not fixed), written by {@link #write(Outcome)}.
   */
  static ClientTimingsFile create(Path path, int promptTokens, int concurrency) {
    ClientTimingsFile csv = create(path, false);
    csv.columns = new Columns(promptTokens, concurrency, null);
    return csv;
  }

  synchronized void write(Outcome outcome) {
    write(outcome, columns);
  }

  /**
   * What every row of one run (or one matrix cell) shares: the prompt length, the concurrency (0 =
   * not fixed) and, in a sweep, the cell.
   */
  record Columns(int promptTokens, int concurrency, Matrix.@Nullable Cell cell) {}

  /**
   * Creates (or replaces) {@code path} and writes the header: {@link ClientCsv#HEADER}, or {@link
   * ClientCsv#MATRIX_HEADER} for a sweep.
   */
  static ClientTimingsFile create(Path path, boolean matrix) {
    try {
      Writer writer = new BufferedWriter(Files.newBufferedWriter(path, StandardCharsets.UTF_8));
      ClientTimingsFile csv = new ClientTimingsFile(path, writer, matrix);
      csv.write((matrix ? ClientCsv.MATRIX_HEADER : ClientCsv.HEADER) + "\n");
      return csv;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + path, e);
    }
  }

  synchronized void write(Outcome outcome, Columns columns) {
    if (!matrix) {
      write(row(outcome, columns.promptTokens(), columns.concurrency()) + "\n");
      return;
    }
    StringBuilder row =
        new StringBuilder(row(outcome, columns.promptTokens(), columns.concurrency()));
    Matrix.Cell cell = columns.cell();
    row.append(',');
    if (cell != null) {
      row.append(cell.maxTokens()).append(',');
      // the label has spaces and '=', never a comma or quote: no quoting needed
      row.append(outcome.warmup() ? "warm-up" : cell.label());
    } else {
      row.append(',');
    }
    write(row.append('\n').toString());
  }

  /** The CSV row of one outcome, without line end. */
  static String row(Outcome outcome, int promptTokens, int concurrency) {
    Double ttft = outcome.ok() ? outcome.ttftMs() : null;
    Integer tokens = outcome.ok() ? outcome.outputTokens() : null;
    return ClientCsv.appendRow(
            new StringBuilder(160),
            outcome.requestId(),
            ClientCsv.startTs(outcome.issued()),
            ttft == null ? null : ClientCsv.millis(ttft),
            ClientCsv.millis(outcome.e2eMs()),
            tokens,
            ClientCsv.millis(outcome.clientQueueMs()),
            promptTokens,
            concurrency > 0 ? concurrency : null,
            outcome.status(),
            outcome.warmup())
        .toString();
  }

  private void write(String text) {
    try {
      writer.write(text);
      writer.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + path, e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close " + path, e);
    }
  }
}
