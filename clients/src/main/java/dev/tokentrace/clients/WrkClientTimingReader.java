package dev.tokentrace.clients;

import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.LineSplitter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The rows our wrk script writes (format id {@value #FORMAT}; {@code scripts/wrk/tokentrace.lua},
 * docs/formats/gateways.md#wrk): the header {@value #HEADER}, then one line per response with the
 * X-Request-Id the script sent, the send and receive times in epoch microseconds, the HTTP status
 * and the body bytes. wrk cannot see the first token: rows are end-to-end only, attributed by the
 * end-to-end view.
 */
public final class WrkClientTimingReader implements ClientTimingReader {
  static final String FORMAT = "wrk";
  public static final String HEADER = "request_id,start_us,end_us,status,bytes";

  private static final int MAX_LINE_BYTES = 4096;

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public Recognition recognize(FileHead head) {
    return head.firstLine().strip().equals(HEADER)
        ? Recognition.yes()
        : Recognition.no("first line is not the header of our wrk script (" + HEADER + ")");
  }

  @Override
  public void read(Path file, ClientReaderOutput sink) {
    String path = file.toString();
    boolean header = false;
    try (InputStream in = Files.newInputStream(file)) {
      LineSplitter.Lines lines = LineSplitter.lines(in, MAX_LINE_BYTES);
      LineSplitter.@Nullable Line line;
      while ((line = lines.next()) != null) {
        SourcePosition position = new SourcePosition(path, line.number(), line.offset());
        String text = line.text().strip();
        if (text.isEmpty() && !line.tooLong()) {
          continue;
        }
        try {
          if (line.tooLong()) {
            throw new BadField("line too long (over " + MAX_LINE_BYTES + " bytes)");
          }
          if (line.invalidUtf8()) {
            throw new BadField("invalid utf-8");
          }
          if (text.equals(HEADER)) {
            header = true; // several wrk runs appended to one file each write it
            continue;
          }
          if (!header) {
            throw new BadField("header: expected '" + HEADER + "' (file skipped)");
          }
          sink.row(row(position, List.of(text.split(",", -1))));
        } catch (BadField e) {
          sink.rejected(new ClientRejection(position, e.getMessage(), text));
          if (!header) {
            return;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  private static ClientTiming row(SourcePosition position, List<String> fields) throws BadField {
    if (fields.size() != 5) {
      throw new BadField("wrong column count: " + fields.size() + ", expected 5");
    }
    String id = fields.get(0).strip();
    if (id.isEmpty()) {
      throw new BadField("missing value for 'request_id'");
    }
    if (id.length() > ClientRow.MAX_REQUEST_ID) {
      throw new BadField("'request_id' longer than " + ClientRow.MAX_REQUEST_ID + " characters");
    }
    long start = micros(fields.get(1), "start_us");
    long end = micros(fields.get(2), "end_us");
    if (end < start) {
      throw new BadField("'end_us' < 'start_us' (" + end + " < " + start + ")");
    }
    String code = fields.get(3).strip();
    if (!code.matches("\\d{1,3}")) {
      throw new BadField("bad 'status' value " + ClientFields.quote(code));
    }
    int status = Integer.parseInt(code);
    return new ClientTiming(
        position,
        id,
        RequestKeys.normalize(id),
        Instant.ofEpochSecond(start / 1_000_000, (start % 1_000_000) * 1000),
        null,
        null,
        (end - start) / 1000.0,
        null,
        null,
        null,
        null,
        status >= 200 && status < 400 ? ClientTiming.STATUS_OK : "http " + status,
        false,
        IdKind.SENT,
        ClientDetail.NONE,
        null);
  }

  private static long micros(String raw, String field) throws BadField {
    String text = raw.strip();
    if (!text.matches("\\d{15,17}")) {
      throw new BadField("bad '" + field + "' value " + ClientFields.quote(text) + " (epoch us)");
    }
    return Long.parseLong(text);
  }
}
