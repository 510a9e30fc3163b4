package dev.tokentrace.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.commons.csv.CSVFormat;
import org.jspecify.annotations.Nullable;

/**
 * Our client CSV (docs/formats/clients.md#our-client-csv): the columns, their order and the CSV
 * dialect, shared by its two writers ({@code tokentrace loadgen}, the simulator's {@code
 * client_timings.csv}) and its reader ({@code clients --format csv}). One row per request; {@code
 * start_ts} is when the client issued it, {@code ttft_ms} and {@code e2e_ms} run from it.
 */
public final class ClientCsv {
  private ClientCsv() {}

  /** Columns a file must have. */
  public static final List<String> REQUIRED =
      List.of("request_id", "start_ts", "ttft_ms", "e2e_ms", "output_tokens");

  /** Columns a file may have; the writers always write them. */
  public static final List<String> OPTIONAL =
      List.of("client_queue_ms", "prompt_tokens", "concurrency", "status", "warmup");

  /**
   * Columns of a {@code loadgen --matrix} sweep (docs/formats/client-files.md#matrix-columns): the
   * output length the request asked for and the label of its cell. Written after {@link #COLUMNS}
   * only by a sweep, so every other file keeps the older header.
   */
  public static final List<String> MATRIX = List.of("max_tokens", "cell");

  /** Every column, in the order the writers write them. */
  public static final List<String> COLUMNS = concat(REQUIRED, OPTIONAL);

  /** The columns of a sweep's file: {@link #COLUMNS}, then {@link #MATRIX}. */
  public static final List<String> MATRIX_COLUMNS = concat(COLUMNS, MATRIX);

  /** The header line the writers write, without line end. */
  public static final String HEADER = String.join(",", COLUMNS);

  /** The header line of a sweep's file. */
  public static final String MATRIX_HEADER = String.join(",", MATRIX_COLUMNS);

  /**
   * RFC 4180 (Commons CSV): a field is quoted only when it must be (a comma, quote or line break),
   * quotes doubled; records end with {@code \n}.
   */
  public static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

  /**
   * {@code start_ts} as the writers write it: UTC with microseconds, e.g.
   * 2026-03-02T09:00:00.123456Z.
   */
  public static final DateTimeFormatter START_TS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** {@code start_ts} of a request issued at {@code issued}. */
  public static String startTs(Instant issued) {
    return START_TS.format(issued);
  }

  /** A duration in milliseconds as the writers write it: three decimals. */
  public static String millis(double ms) {
    return String.format(Locale.ROOT, "%.3f", ms);
  }

  /**
   * Appends one row, without line end, quoted as {@link #FORMAT} quotes.
   *
   * @param values one per {@link #COLUMNS} entry (or {@link #MATRIX_COLUMNS} in a sweep's file), in
   *     that order; null is an empty field
   */
  public static <A extends Appendable> A appendRow(A out, @Nullable Object... values) {
    if (values.length != COLUMNS.size() && values.length != MATRIX_COLUMNS.size()) {
      throw new IllegalArgumentException(
          "a client CSV row has "
              + COLUMNS.size()
              + " fields ("
              + MATRIX_COLUMNS.size()
              + " in a matrix sweep), not "
              + values.length);
    }
    try {
      for (int i = 0; i < values.length; i++) {
        @Nullable Object value = values[i];
        FORMAT.print(value == null ? "" : value, out, i == 0);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static List<String> concat(List<String> first, List<String> second) {
    List<String> all = new ArrayList<>(first);
    all.addAll(second);
    return List.copyOf(all);
  }
}
