package dev.tokentrace.ingest.sink;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.ColumnType;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decodes the JSON of an events record straight from its bytes with Jackson's streaming parser,
 * without data binding: in the sink, {@link EventJson#read} (text, then a buffered polymorphic
 * creator) was over half of the sink thread's Java samples (BENCHMARKS.md, "Ingest end to end").
 *
 * <p>It only takes the shape {@link EventJson#write} produces and builds the event with its own
 * constructor (through its {@link EventTable}'s factory: the fields it knows are the event tables'
 * columns), so its checks run as before. Whenever the input leaves that shape (a non-ASCII byte, a
 * null, a duplicate or repeated field, a number where a string belongs or an integer where a double
 * does, a missing primitive, a timestamp in another form, an unknown type, trailing content, a
 * failed check), {@link #decode} returns null and the caller uses {@link EventJson#read}: what is
 * decoded here is exactly what {@code EventJson.read} would return, and everything else, including
 * every error and its message, is still decided there. Not thread-safe: one per sink.
 */
final class EventDecoder {
  private static final JsonFactory FACTORY = EventJson.mapper().getFactory();

  /**
   * A JSON field: the envelope's, or an own column of one or more event tables (by name; a name
   * shared by several tables has one type, checked when the class loads). Fields of no event are
   * skipped, as EventJson ignores them.
   */
  private record Field(int index, Kind kind) {}

  /** The JSON token a field takes in {@link EventJson#write}'s output, and its Java type. */
  private enum Kind {
    TEXT,
    INT,
    LONG,
    DOUBLE,
    BOOL,
    INSTANT,
    SOURCE;

    static Kind of(ColumnType type) {
      switch (type) {
        case VARCHAR:
          return TEXT;
        case INTEGER:
          return INT;
        case BIGINT:
          return LONG;
        case DOUBLE:
          return DOUBLE;
        case BOOLEAN:
          return BOOL;
        case TIMESTAMP:
          return INSTANT;
      }
      throw new IllegalStateException("unhandled column type " + type);
    }
  }

  private static final int TYPE = 0;
  private static final int ENGINE = 1;
  private static final int INSTANCE = 2;
  private static final int TS = 3;
  private static final int SOURCE = 4;

  /** Every field by JSON name: the envelope's first, then the tables' own columns. */
  private static final Map<String, Field> FIELDS = new HashMap<>();

  /** Per table name: the field index of each own column, by column position. */
  private static final Map<String, Layout> LAYOUTS = new HashMap<>();

  private record Layout(EventTable<?> table, int[] fields) {}

  static {
    FIELDS.put("type", new Field(TYPE, Kind.TEXT));
    FIELDS.put("engine", new Field(ENGINE, Kind.TEXT));
    FIELDS.put("instance", new Field(INSTANCE, Kind.TEXT));
    FIELDS.put("ts", new Field(TS, Kind.INSTANT));
    FIELDS.put("source", new Field(SOURCE, Kind.SOURCE));
    for (EventTable<?> table : EventTables.ALL) {
      List<? extends Column<?>> own = table.ownColumns();
      int[] fields = new int[own.size()];
      for (int i = 0; i < fields.length; i++) {
        Column<?> column = own.get(i);
        Kind kind = Kind.of(column.type());
        Field field = FIELDS.computeIfAbsent(column.name(), name -> new Field(FIELDS.size(), kind));
        if (field.kind() != kind || field.index() <= SOURCE) {
          throw new IllegalStateException(
              "event column " + table.name() + "." + column.name() + " clashes with another field");
        }
        fields[i] = field.index();
      }
      LAYOUTS.put(table.name(), new Layout(table, fields));
    }
  }

  private final @Nullable Object[] values = new Object[FIELDS.size()];
  private final boolean[] seen = new boolean[FIELDS.size()];
  private final TableValues tableValues = new TableValues();

  /** The event, or null when {@link EventJson#read} must decide (see the class comment). */
  @Nullable EngineEvent decode(byte[] json) {
    if (!ascii(json)) {
      return null; // Jackson's and String's UTF-8 decoders differ on malformed input
    }
    Arrays.fill(values, null);
    Arrays.fill(seen, false);
    try (JsonParser parser = FACTORY.createParser(json)) {
      if (!readObject(parser) || parser.nextToken() != null) {
        return null;
      }
      return build();
    } catch (IOException | RuntimeException e) {
      return null; // malformed, or a check of the event failed: EventJson.read says why
    }
  }

  private static boolean ascii(byte[] json) {
    for (byte b : json) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  private boolean readObject(JsonParser parser) throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      return false;
    }
    for (JsonToken token = parser.nextToken();
        token != JsonToken.END_OBJECT;
        token = parser.nextToken()) {
      Field field = FIELDS.get(parser.currentName());
      JsonToken value = parser.nextToken();
      if (field == null) {
        parser.skipChildren(); // not a property of any event: EventJson ignores it too
        continue;
      }
      if (seen[field.index()]) {
        return false;
      }
      seen[field.index()] = true;
      Object read = read(field.kind(), value, parser);
      if (read == null) {
        return false;
      }
      values[field.index()] = read;
    }
    return true;
  }

  private static @Nullable Object read(Kind kind, JsonToken token, JsonParser parser)
      throws IOException {
    switch (kind) {
      case TEXT:
        return token == JsonToken.VALUE_STRING ? parser.getText() : null;
      case INT:
        return token == JsonToken.VALUE_NUMBER_INT
                && parser.getNumberType() == JsonParser.NumberType.INT
            ? Integer.valueOf(parser.getIntValue())
            : null;
      case LONG:
        return token == JsonToken.VALUE_NUMBER_INT
                && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER
            ? Long.valueOf(parser.getLongValue())
            : null;
      case DOUBLE:
        return token == JsonToken.VALUE_NUMBER_FLOAT
            ? Double.valueOf(parser.getDoubleValue())
            : null;
      case BOOL:
        return token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE
            ? Boolean.valueOf(token == JsonToken.VALUE_TRUE)
            : null;
      case INSTANT:
        return token == JsonToken.VALUE_STRING ? EventJson.parseCanonical(parser.getText()) : null;
      case SOURCE:
        return token == JsonToken.START_OBJECT ? readSource(parser) : null;
    }
    throw new IllegalStateException("unhandled kind " + kind);
  }

  /** {@code {"path":…,"line":…,"offset":…}}, other fields skipped as EventJson does. */
  private static @Nullable SourcePosition readSource(JsonParser parser) throws IOException {
    String path = null;
    Long line = null;
    Long offset = null;
    for (JsonToken token = parser.nextToken();
        token != JsonToken.END_OBJECT;
        token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if ("path".equals(name)) {
        if (path != null || value != JsonToken.VALUE_STRING) {
          return null;
        }
        path = parser.getText();
      } else if ("line".equals(name)) {
        if (line != null || (line = (Long) read(Kind.LONG, value, parser)) == null) {
          return null;
        }
      } else if ("offset".equals(name)) {
        if (offset != null || (offset = (Long) read(Kind.LONG, value, parser)) == null) {
          return null;
        }
      } else {
        parser.skipChildren();
      }
    }
    if (path == null || line == null || offset == null) {
      return null; // a missing primitive: EventJson.read decides what that means
    }
    return new SourcePosition(path, line, offset);
  }

  private @Nullable EngineEvent build() {
    Object type = values[TYPE];
    Layout layout = type == null ? null : LAYOUTS.get((String) type);
    if (layout == null || values[ENGINE] == null) {
      return null; // no or an unknown type: EventJson.read decides
    }
    tableValues.fields = layout.fields();
    return layout.table().create(tableValues);
  }

  /**
   * The decoded values, seen by an {@link EventTable}'s factory. A missing primitive or creator
   * value throws (NullPointerException): {@link #decode} then leaves the decision to EventJson.
   */
  private final class TableValues implements EventTable.Values {
    private int[] fields = new int[0];

    @Override
    public Engine engine() {
      return Engine.fromId((String) values[ENGINE]);
    }

    @Override
    public String instance() {
      return (String) values[INSTANCE];
    }

    @Override
    public @Nullable Instant ts() {
      return (Instant) values[TS];
    }

    @Override
    public SourcePosition source() {
      return (SourcePosition) values[SOURCE];
    }

    @Override
    public @Nullable String text(int column) {
      return (String) values[fields[column]];
    }

    @Override
    public @Nullable Integer int32(int column) {
      return (Integer) values[fields[column]];
    }

    @Override
    public @Nullable Long int64(int column) {
      return (Long) values[fields[column]];
    }

    @Override
    public @Nullable Double float64(int column) {
      return (Double) values[fields[column]];
    }

    @Override
    public boolean bool(int column) {
      return (Boolean) values[fields[column]];
    }

    @Override
    public @Nullable Instant instant(int column) {
      return (Instant) values[fields[column]];
    }
  }
}
