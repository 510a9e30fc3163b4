package dev.tokentrace.clients;

import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.measure.ClientCsv;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.jspecify.annotations.Nullable;

/**
 * tokentrace's own client CSV (format id {@value #FORMAT}): a header, then one row per request.
 *
 * <p>Required columns: {@code request_id, start_ts, ttft_ms, e2e_ms, output_tokens}; optional:
 * {@code client_queue_ms, prompt_tokens, concurrency, status, warmup}; other columns are ignored
 * with one warning per file. Names are case-insensitive, order is free. {@code start_ts} is
 * ISO-8601 with a zone, or epoch s/ms/us/ns ({@link StartTimestamps}); durations are ms from {@code
 * start_ts} and include {@code client_queue_ms}; empty {@code status} means ok. A failed request
 * (status not ok) may leave timings and tokens empty.
 *
 * <p>Each line is parsed on its own (Commons CSV, RFC 4180 quoting), so a stray quote costs one
 * row, not the rest of the file; quoted fields cannot span lines. Bad rows become rejections with a
 * stable reason and are skipped; a bad header skips the file with one rejection.
 */
public final class CsvClientTimingReader implements ClientTimingReader {
  public static final String FORMAT = "csv";

  /** Longer lines are rejected without being buffered (a request row is under 200 bytes). */
  static final int MAX_LINE_BYTES = 64 * 1024;

  private static final int MAX_REQUEST_ID = 256;
  private static final CSVFormat CSV = ClientCsv.FORMAT;

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    String firstLine = head.firstLine().toLowerCase(java.util.Locale.ROOT);
    if (!head.isJsonObject()
        && !head.isJsonArray()
        && firstLine.contains("request_id")
        && firstLine.contains("ttft_ms")) {
      return Recognition.yes();
    }
    return Recognition.no("first line is not a CSV header with request_id and ttft_ms");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    ClientLines.readAll(file, MAX_LINE_BYTES, new Lines(null), sink);
  }

  @Override
  public ClientLineReader lineReader(FileHead head, @Nullable String state) {
    return new Lines(state);
  }

  /**
   * One file's lines: the header first (remembered as the reader's state, so that a resumed
   * follower reads the rows after it by the same columns), then one row per line. A bad header
   * skips the rest of the file with one rejection.
   */
  private static final class Lines implements ClientLineReader {
    private @Nullable CsvHeader header;
    private @Nullable String headerText;
    private boolean skipped;

    Lines(@Nullable String state) {
      if (state != null) {
        try {
          header = CsvHeader.of(fields(state, "header: "));
          headerText = state;
        } catch (BadField e) {
          throw new IllegalArgumentException(
              "remembered csv header is unusable: " + e.getMessage());
        }
      }
    }

    @Override
    public void line(SourcePosition position, String raw, ClientReaderOutput sink) {
      String text = ClientLines.withoutBom(position, raw);
      if (skipped) {
        sink.ignored(position, "file skipped after its header");
      } else if (text.isBlank()) {
        sink.ignored(position, "blank line");
      } else if (header == null) {
        header = header(position, text, sink);
        if (header == null) {
          skipped = true;
        } else {
          headerText = text;
          sink.ignored(position, "csv header");
        }
      } else {
        row(position, text, header, sink);
      }
    }

    @Override
    public void invalid(
        SourcePosition position, String reason, String excerpt, ClientReaderOutput sink) {
      if (skipped) {
        sink.ignored(position, "file skipped after its header");
      } else if (header == null) {
        skipped = true;
        sink.rejected(
            new ClientRejection(position, "header: " + reason + " (file skipped)", excerpt));
      } else {
        sink.rejected(new ClientRejection(position, reason, excerpt));
      }
    }

    @Override
    public void finish(String path, ClientReaderOutput sink) {
      if (header == null && !skipped) {
        sink.rejected(new ClientRejection(new SourcePosition(path, 1, 0), "empty file", ""));
      }
    }

    @Override
    public @Nullable String state() {
      return headerText;
    }
  }

  private static @Nullable CsvHeader header(
      SourcePosition position, String text, ClientReaderOutput sink) {
    try {
      CsvHeader header = CsvHeader.of(fields(text, "header: "));
      if (!header.unknown().isEmpty()) {
        sink.warning(
            position, "header: ignoring unknown column(s) " + String.join(", ", header.unknown()));
      }
      return header;
    } catch (BadField e) {
      String reason =
          e.getMessage().startsWith("header: ") ? e.getMessage() : "header: " + e.getMessage();
      reason = reason.endsWith("(file skipped)") ? reason : reason + " (file skipped)";
      sink.rejected(new ClientRejection(position, reason, text));
      return null;
    }
  }

  private static void row(
      SourcePosition position, String text, CsvHeader header, ClientReaderOutput sink) {
    try {
      List<String> fields = fields(text, "");
      if (header.isRepeatedBy(fields)) {
        throw new BadField("duplicate header");
      }
      if (fields.size() != header.names().size()) {
        throw new BadField(
            "wrong column count: " + fields.size() + ", expected " + header.names().size());
      }
      sink.row(timing(position, header, fields));
    } catch (BadField e) {
      sink.rejected(new ClientRejection(position, e.getMessage(), text));
    }
  }

  /** The fields of one line; {@code prefix} marks header problems. */
  private static List<String> fields(String text, String prefix) throws BadField {
    try (CSVParser parser = CSVParser.parse(text, CSV)) {
      List<CSVRecord> records = parser.getRecords();
      return records.isEmpty() ? List.of() : records.get(0).toList();
    } catch (IOException | UncheckedIOException e) {
      // Commons CSV reports an unbalanced or misplaced quote as an I/O error on the string reader
      throw new BadField(prefix + "malformed csv (unbalanced quote)");
    }
  }

  private static ClientTiming timing(SourcePosition position, CsvHeader header, List<String> fields)
      throws BadField {
    Row row = new Row(header, fields);
    String requestId = row.text("request_id").strip();
    if (requestId.isEmpty()) {
      throw new BadField("missing value for 'request_id'");
    }
    if (requestId.length() > MAX_REQUEST_ID) {
      throw new BadField("'request_id' longer than " + MAX_REQUEST_ID + " characters");
    }
    Instant start = StartTimestamps.parse(row.text("start_ts"));
    String status = ClientFields.status(row.text("status"));
    Double ttft = row.duration("ttft_ms");
    Double e2e = row.duration("e2e_ms");
    Integer outputTokens = ClientFields.count("output_tokens", row.text("output_tokens"));
    if (ClientTiming.STATUS_OK.equals(status)) {
      ClientFields.required("ttft_ms", ttft);
      ClientFields.required("e2e_ms", e2e);
      ClientFields.required("output_tokens", outputTokens);
    }
    Double queue = row.duration("client_queue_ms");
    Integer promptTokens = ClientFields.count("prompt_tokens", row.text("prompt_tokens"));
    Integer concurrency = concurrency(row.text("concurrency"));
    boolean warmup = ClientFields.flag("warmup", row.text("warmup"));
    row.notAbove("ttft_ms", "e2e_ms");
    row.notAbove("client_queue_ms", "ttft_ms");
    // docs/formats/client-files.md#matrix-columns: a loadgen --matrix sweep's cell
    Integer maxTokens = ClientFields.count("max_tokens", row.text("max_tokens"));
    if (maxTokens != null && maxTokens < 1) {
      throw new BadField("bad 'max_tokens' value " + ClientFields.quote(row.text("max_tokens")));
    }
    String cell = row.text("cell").strip();
    ClientTiming.MatrixCell matrix =
        cell.isEmpty() ? null : new ClientTiming.MatrixCell(cell, maxTokens);
    return new ClientTiming(
            position,
            requestId,
            RequestKeys.normalize(requestId),
            start,
            null,
            ttft,
            e2e,
            outputTokens,
            queue,
            promptTokens,
            concurrency,
            status,
            warmup)
        .inCell(matrix);
  }

  private static @Nullable Integer concurrency(String raw) throws BadField {
    Integer level = ClientFields.count("concurrency", raw);
    if (level != null && level < 1) {
      throw new BadField("bad 'concurrency' value " + ClientFields.quote(raw));
    }
    return level;
  }

  /** One data line's fields, read by column name. */
  private record Row(CsvHeader header, List<String> fields) {
    String text(String column) {
      return header.value(fields, column);
    }

    @Nullable Double duration(String column) throws BadField {
      return ClientFields.duration(column, text(column));
    }

    /** Rejects {@code part > whole}: a part cannot exceed the time it is measured within. */
    void notAbove(String part, String whole) throws BadField {
      Double partValue = duration(part);
      Double wholeValue = duration(whole);
      if (partValue != null && wholeValue != null && partValue > wholeValue) {
        throw new BadField(
            "'"
                + part
                + "' > '"
                + whole
                + "' ("
                + text(part).strip()
                + " > "
                + text(whole).strip()
                + ")");
      }
    }
  }
}
