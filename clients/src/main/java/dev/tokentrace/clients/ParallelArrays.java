package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The per-request parallel arrays of one benchmark result object ({@code vllm bench serve
 * --save-detailed}, SGLang {@code bench_serving --output-details}: {@code ttfts[i]}, {@code
 * itls[i]}, {@code errors[i]} ... describe request {@code i}), read with Jackson's streaming API
 * array by array.
 *
 * <p>Memory bound: a row needs element {@code i} of every array, but the arrays come one after the
 * other, so holding them would cost ~50 bytes per request (500 MB for 10 M requests). Instead each
 * wanted array is spilled, as it streams past, to a temporary file of fixed-size records (8 bytes
 * per number, 20 per ITL list, the capped error text), and rows are then read back from all files
 * in step. Heap use is a 64 KB buffer per array whatever the file size; temporary disk is about the
 * same 50 bytes per request. Arrays not asked for ({@code generated_texts}) are skipped token by
 * token without being kept; top-level scalars (a few dozen) are kept as values.
 *
 * <p>Not thread-safe; {@link #close} deletes the temporary files.
 */
final class ParallelArrays implements AutoCloseable {
  /** What an array's elements are. */
  enum Kind {
    /** A number (or null), kept as a double; NaN stands for null. */
    NUMBER,
    /** A string (or null), kept to its first {@value #MAX_TEXT} characters. */
    TEXT,
    /** A list of gaps in seconds ({@code itls[i]}), kept as count, max and sum. */
    GAPS
  }

  /** The summary of one {@code itls[i]} list; count -1 when the element was null. */
  record Gaps(int count, double max, double sum) {}

  static final int MAX_TEXT = 2000;

  private final Map<String, SpilledColumn> columns = new LinkedHashMap<>();
  private final Map<String, JsonNode> scalars = new LinkedHashMap<>();

  private ParallelArrays() {}

  /**
   * Reads the object whose {@code START_OBJECT} the parser is at, to its end.
   *
   * @throws BadField when a wanted array holds something else than its kind (the whole object is
   *     then unusable: index {@code i} would no longer mean request {@code i})
   */
  static ParallelArrays read(JsonParser parser, Map<String, Kind> wanted)
      throws IOException, BadField {
    ParallelArrays arrays = new ParallelArrays();
    try {
      for (JsonToken token = parser.nextToken();
          token == JsonToken.FIELD_NAME;
          token = parser.nextToken()) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        Kind kind = wanted.get(name);
        if (kind != null && value == JsonToken.START_ARRAY) {
          arrays.columns.put(name, SpilledColumn.spill(parser, name, kind));
        } else if (value.isScalarValue()) {
          arrays.scalars.put(name, ClientJson.MAPPER.readTree(parser));
        } else {
          parser.skipChildren();
        }
      }
      arrays.flush();
      return arrays;
    } catch (IOException | BadField | RuntimeException e) {
      arrays.close();
      throw e;
    }
  }

  boolean has(String name) {
    return columns.containsKey(name);
  }

  /** Element count of every array read, in file order. */
  Map<String, Long> lengths() {
    Map<String, Long> lengths = new LinkedHashMap<>();
    columns.forEach((name, column) -> lengths.put(name, column.length()));
    return lengths;
  }

  /** A top-level scalar ({@code max_concurrency}, {@code backend}), or null. */
  @Nullable JsonNode scalar(String name) {
    return scalars.get(name);
  }

  /** Reads the rows back, element {@code i} of every array at a time. */
  Cursor cursor() throws IOException {
    return new Cursor(columns);
  }

  private void flush() throws IOException {
    for (SpilledColumn column : columns.values()) {
      column.finish();
    }
  }

  @Override
  public void close() {
    for (SpilledColumn column : columns.values()) {
      column.delete();
    }
  }

  /** Reads element {@code i} of every column per {@link #next}; closes its files. */
  static final class Cursor implements AutoCloseable {
    private final Map<String, Kind> kinds = new LinkedHashMap<>();
    private final Map<String, DataInputStream> inputs = new LinkedHashMap<>();
    private final Map<String, Object> current = new LinkedHashMap<>();

    private Cursor(Map<String, SpilledColumn> columns) throws IOException {
      List<DataInputStream> opened = new ArrayList<>();
      try {
        for (Map.Entry<String, SpilledColumn> entry : columns.entrySet()) {
          DataInputStream in = entry.getValue().open();
          opened.add(in);
          inputs.put(entry.getKey(), in);
          kinds.put(entry.getKey(), entry.getValue().kind());
        }
      } catch (IOException e) {
        for (DataInputStream in : opened) {
          in.close();
        }
        throw e;
      }
    }

    /** Moves to the next element of every column. */
    void next() throws IOException {
      for (Map.Entry<String, DataInputStream> entry : inputs.entrySet()) {
        DataInputStream in = entry.getValue();
        Kind kind = kinds.get(entry.getKey());
        Object value;
        if (kind == Kind.NUMBER) {
          value = in.readDouble();
        } else if (kind == Kind.TEXT) {
          value = in.readBoolean() ? in.readUTF() : "";
        } else {
          value = new Gaps(in.readInt(), in.readDouble(), in.readDouble());
        }
        current.put(entry.getKey(), value);
      }
    }

    /**
     * The current number of a column, null when the column is absent or the element null or NaN; an
     * infinite value is returned as such, for the caller to reject.
     */
    @Nullable Double number(String name) {
      Object value = current.get(name);
      return value instanceof Double && !((Double) value).isNaN() ? (Double) value : null;
    }

    /** The current text of a column, "" when absent or null. */
    String text(String name) {
      Object value = current.get(name);
      return value instanceof String ? (String) value : "";
    }

    /** The current gap summary of a column, null when absent or null. */
    @Nullable Gaps gaps(String name) {
      Object value = current.get(name);
      return value instanceof Gaps && ((Gaps) value).count() >= 0 ? (Gaps) value : null;
    }

    @Override
    public void close() throws IOException {
      for (DataInputStream in : inputs.values()) {
        in.close();
      }
    }
  }
}
