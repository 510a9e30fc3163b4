package dev.tokentrace.store.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.store.CsvCells;
import dev.tokentrace.store.SqlValues;
import java.io.IOException;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.jspecify.annotations.Nullable;

/** Prints a result set as a table, CSV or JSON; CSV and JSON stream, the table buffers. */
abstract class QueryPrinter {
  /** Durations in the table are shown to the microsecond. */
  private static final int TABLE_DECIMALS = 3;

  /** The printed columns' labels, in print order. */
  final List<String> columns = new ArrayList<>();

  /** The printed columns' JDBC indexes (1-based), in print order. */
  private final List<Integer> indexes = new ArrayList<>();

  final Appendable out;

  QueryPrinter(Columns chosen, Appendable out) {
    columns.addAll(chosen.labels());
    indexes.addAll(chosen.indexes());
    this.out = out;
  }

  /** The result's columns that a {@link ColumnSelection} keeps. */
  record Columns(List<String> labels, List<Integer> indexes) {
    static Columns of(ResultSetMetaData meta, ColumnSelection selection) throws SQLException {
      List<String> all = new ArrayList<>();
      for (int column = 1; column <= meta.getColumnCount(); column++) {
        all.add(meta.getColumnLabel(column));
      }
      List<String> labels = new ArrayList<>();
      List<Integer> indexes = new ArrayList<>();
      for (int index : selection.apply(all)) {
        labels.add(all.get(index));
        indexes.add(index + 1);
      }
      return new Columns(labels, indexes);
    }
  }

  static QueryPrinter of(
      QueryOutputFormat format, ResultSetMetaData meta, ColumnSelection selection, Appendable out)
      throws SQLException, IOException {
    Columns chosen = Columns.of(meta, selection);
    switch (format) {
      case CSV:
        return new Csv(chosen, out);
      case JSON:
        return new Json(chosen, out);
      case VERTICAL:
        return new Vertical(chosen, out);
      default:
        return new Table(chosen, out);
    }
  }

  abstract void row(ResultSet result) throws SQLException, IOException;

  abstract void finish(long rows) throws IOException;

  List<@Nullable Object> values(ResultSet result) throws SQLException {
    List<@Nullable Object> values = new ArrayList<>(columns.size());
    for (int column : indexes) {
      values.add(SqlValues.read(result, column));
    }
    return values;
  }

  private static final class Table extends QueryPrinter {
    private final List<List<@Nullable Object>> rows = new ArrayList<>();

    Table(Columns chosen, Appendable out) {
      super(chosen, out);
    }

    @Override
    void row(ResultSet result) throws SQLException {
      rows.add(values(result));
    }

    @Override
    void finish(long count) throws IOException {
      String[] headers = new String[columns.size()];
      for (int column = 0; column < headers.length; column++) {
        int index = column;
        boolean numeric =
            !rows.isEmpty()
                && rows.stream()
                    .allMatch(row -> row.get(index) == null || row.get(index) instanceof Number);
        headers[column] = (numeric ? ">" : "") + columns.get(column);
      }
      MarkdownTable table = new MarkdownTable(headers);
      for (List<@Nullable Object> row : rows) {
        table.row(
            row.stream()
                .map(value -> SqlValues.text(value, TABLE_DECIMALS))
                .toArray(String[]::new));
      }
      out.append(table.render())
          .append('(')
          .append((count == 1 ? "1 row" : count + " rows"))
          .append(")\n");
    }
  }

  private static final class Csv extends QueryPrinter {
    private final CSVPrinter printer;

    Csv(Columns chosen, Appendable out) throws IOException {
      super(chosen, out);
      printer = new CSVPrinter(out, CSVFormat.RFC4180.builder().setRecordSeparator('\n').get());
      List<String> header = new ArrayList<>();
      for (String column : columns) {
        header.add(CsvCells.neutralise(column));
      }
      printer.printRecord(header);
    }

    @Override
    void row(ResultSet result) throws SQLException, IOException {
      List<String> cells = new ArrayList<>();
      for (Object value : values(result)) {
        cells.add(CsvCells.cell(value)); // docs/privacy.md#csv-cells
      }
      printer.printRecord(cells);
    }

    @Override
    void finish(long rows) throws IOException {
      printer.flush();
    }
  }

  private static final class Json extends QueryPrinter {
    private static final ObjectMapper JSON = new ObjectMapper();
    private boolean first = true;

    Json(Columns chosen, Appendable out) throws IOException {
      super(chosen, out);
      out.append('[');
    }

    @Override
    void row(ResultSet result) throws SQLException, IOException {
      Map<String, @Nullable Object> object = new LinkedHashMap<>();
      List<@Nullable Object> values = values(result);
      for (int column = 0; column < columns.size(); column++) {
        Object value = values.get(column);
        object.put(columns.get(column), value instanceof Instant ? value.toString() : value);
      }
      out.append(first ? "\n  " : ",\n  ").append(json(object));
      first = false;
    }

    @Override
    void finish(long rows) throws IOException {
      out.append(first ? "]\n" : "\n]\n");
    }

    private static String json(Map<String, @Nullable Object> object) throws IOException {
      try {
        return JSON.writeValueAsString(object);
      } catch (JsonProcessingException e) {
        throw new IOException("cannot write a row as JSON", e);
      }
    }
  }

  /**
   * One block per row, one line per column ({@code column | value}), like psql's expanded display
   * ({@code \x}): for rows wider than a terminal. Streams.
   */
  private static final class Vertical extends QueryPrinter {
    private final int width;
    private long number;

    Vertical(Columns chosen, Appendable out) {
      super(chosen, out);
      width = columns.stream().mapToInt(String::length).max().orElse(0);
    }

    @Override
    void row(ResultSet result) throws SQLException, IOException {
      List<@Nullable Object> values = values(result);
      number++;
      out.append("-[ RECORD ").append(Long.toString(number)).append(" ]\n");
      for (int column = 0; column < columns.size(); column++) {
        String name = columns.get(column);
        out.append(name)
            .append(" ".repeat(width - name.length()))
            .append(" | ")
            .append(SqlValues.text(values.get(column), TABLE_DECIMALS))
            .append('\n');
      }
    }

    @Override
    void finish(long rows) throws IOException {
      out.append('(').append(rows == 1 ? "1 row" : rows + " rows").append(")\n");
    }
  }
}
