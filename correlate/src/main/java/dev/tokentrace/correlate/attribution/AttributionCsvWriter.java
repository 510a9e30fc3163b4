package dev.tokentrace.correlate.attribution;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.CsvCells;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import dev.tokentrace.store.SqlValues;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Writes {@code correlate --out attribution.csv}: one row per client request (matched or not) with
 * the columns of {@link #COLUMNS}, from {@code sql/attribution/csv_rows.sql}. Durations in ms with
 * at most 3 decimals; booleans {@code true}/{@code false}; empty for null; a text cell a
 * spreadsheet would read as a formula starts with {@code '} ({@link CsvCells}). Thread-safe.
 */
public final class AttributionCsvWriter {
  /** The header of the file, in order; the first nine are the contract of issue [1/7]. */
  public static final List<String> COLUMNS =
      List.of(
          "request_key",
          "client_ttft_ms",
          "client_e2e_ms",
          "client_queue_ms",
          "network_ms",
          "queue_ms",
          "prefill_ms",
          "decode_ms",
          "dominant",
          "network_ttft_ms",
          "mlt_ms",
          "tpot_ms",
          "output_tokens",
          "server_output_tokens",
          "run_id",
          "request_id",
          "concurrency",
          "engine",
          "instance",
          "server_source",
          "join_status",
          "confidence",
          "warmup",
          "status",
          "suspect",
          "suspect_reason",
          "token_mismatch",
          "server_derived",
          "included",
          "exclusion",
          "match_method",
          "duplicate_reason",
          "clock_offset_ms",
          "vantage",
          "timing_view",
          "network_client_gateway_ms",
          "network_gateway_engine_ms",
          // prefill/decode disaggregation (docs/formats/pd.md#attribution)
          "kv_transfer_ms",
          "decode_queue_ms",
          "decode_instance",
          "kv_transfer_source");

  private static final CSVFormat CSV = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

  private final Database database;

  public AttributionCsvWriter(Database database) {
    this.database = requireNonNull(database, "database is null");
  }

  /**
   * Writes the file (replacing it) and returns the number of rows.
   *
   * @throws UncheckedIOException naming the file when it cannot be written
   */
  public long write(Path file) {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      return write(out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /** Writes the CSV to {@code out} (not closed) and returns the number of rows. */
  public long write(Appendable out) throws IOException {
    CSVPrinter printer = new CSVPrinter(out, CSV);
    printer.printRecord(COLUMNS);
    long rows =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery(SqlCatalog.get(Queries.CSV_ROWS))
                        .scanResultSet((supplier, context) -> print(supplier.get(), printer)));
    printer.flush();
    return rows;
  }

  private static long print(ResultSet result, CSVPrinter printer) throws SQLException {
    int columns = result.getMetaData().getColumnCount();
    if (columns != COLUMNS.size()) {
      throw new IllegalStateException(
          Queries.CSV_ROWS + " returns " + columns + " columns, the CSV has " + COLUMNS.size());
    }
    long rows = 0;
    Object[] values = new Object[columns];
    while (result.next()) {
      for (int column = 1; column <= columns; column++) {
        // a request ID is the client's text: neutralised for spreadsheets
        // (docs/privacy.md#csv-cells)
        values[column - 1] = CsvCells.cell(SqlValues.read(result, column));
      }
      try {
        printer.printRecord(values);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write the attribution CSV", e);
      }
      rows++;
    }
    return rows;
  }
}
