package dev.tokentrace.loadgen;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Our client CSV, as {@code clients --format csv} reads it (CsvClientTimingReader, the same header
 * the simulator's client file has): one row per request in completion order. {@code start_ts} is
 * when the client issued the request (UTC, µs); {@code ttft_ms} and {@code e2e_ms} run from it and
 * include {@code client_queue_ms}. A failed request keeps its status and leaves TTFT and tokens
 * empty. Rows are flushed as written, so a run cut short keeps what it measured. Thread-safe.
 */
final class ClientCsv implements Closeable {
  static final String HEADER =
      "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,client_queue_ms,prompt_tokens,"
          + "concurrency,status,warmup";

  private static final DateTimeFormatter START =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  private final Path path;
  private final Writer writer;
  private final int promptTokens;
  private final int concurrency;

  private ClientCsv(Path path, Writer writer, int promptTokens, int concurrency) {
    this.path = path;
    this.writer = writer;
    this.promptTokens = promptTokens;
    this.concurrency = concurrency;
  }

  /** Creates (or replaces) {@code path} and writes the header; concurrency 0 = not fixed. */
  static ClientCsv create(Path path, int promptTokens, int concurrency) {
    try {
      Writer writer = new BufferedWriter(Files.newBufferedWriter(path, StandardCharsets.UTF_8));
      ClientCsv csv = new ClientCsv(path, writer, promptTokens, concurrency);
      csv.write(HEADER + "\n");
      return csv;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + path, e);
    }
  }

  synchronized void write(Outcome outcome) {
    write(row(outcome, promptTokens, concurrency) + "\n");
  }

  /** The CSV row of one outcome, without line end. */
  static String row(Outcome outcome, int promptTokens, int concurrency) {
    StringBuilder line = new StringBuilder(160);
    line.append(outcome.requestId()).append(',');
    line.append(START.format(outcome.issued())).append(',');
    Double ttft = outcome.ok() ? outcome.ttftMs() : null;
    if (ttft != null) {
      millis(line, ttft);
    }
    line.append(',');
    millis(line, outcome.e2eMs()).append(',');
    if (outcome.ok() && outcome.outputTokens() != null) {
      line.append(outcome.outputTokens());
    }
    line.append(',');
    millis(line, outcome.clientQueueMs()).append(',');
    line.append(promptTokens).append(',');
    if (concurrency > 0) {
      line.append(concurrency);
    }
    line.append(',').append(quoted(outcome.status()));
    return line.append(',').append(outcome.warmup()).toString();
  }

  private static StringBuilder millis(StringBuilder line, double ms) {
    return line.append(String.format(Locale.ROOT, "%.3f", ms));
  }

  /** RFC 4180 quoting when a status holds a comma, quote or line break. */
  static String quoted(String text) {
    if (text.indexOf(',') < 0
        && text.indexOf('"') < 0
        && text.indexOf('\n') < 0
        && text.indexOf('\r') < 0) {
      return text;
    }
    return '"' + text.replace("\"", "\"\"") + '"';
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
