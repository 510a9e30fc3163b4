package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.ColumnType;
import dev.tokentrace.table.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A {@code client_timing} row as it travels through Kafka ({@code <prefix>.clients}): one JSON
 * object whose fields are the table's columns ({@link ClientTiming#TABLE}), timestamps as epoch
 * microseconds (what DuckDB stores), absent fields NULL. The sinks append the decoded values as
 * they are, through {@link #TABLE}, so a streamed row and the same row loaded by {@code clients}
 * are equal column by column (docs/storage.md#client-rows-in-kafka). Thread-safe.
 */
public final class ClientRowJson {
  /**
   * {@code client_timing} with the columns of {@link ClientTiming#TABLE}, over decoded rows (one
   * value per column, in table order): the descriptor the sinks append streamed rows with.
   */
  public static final TableSchema<Object[]> TABLE = flat(ClientTiming.TABLE);

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ClientRowJson() {}

  /** The record value of {@code row}. */
  public static byte[] write(ClientTiming.Stored row) {
    ObjectNode json = MAPPER.createObjectNode();
    for (Column<? super ClientTiming.Stored> column : ClientTiming.TABLE.columns()) {
      Object value = column.get(row);
      if (value == null) {
        continue;
      }
      String name = column.name();
      switch (column.type()) {
        case VARCHAR -> json.put(name, (String) value);
        case INTEGER -> json.put(name, (Integer) value);
        case BIGINT -> json.put(name, (Long) value);
        case DOUBLE -> json.put(name, (Double) value);
        case BOOLEAN -> json.put(name, (Boolean) value);
        case TIMESTAMP -> json.put(name, micros((Instant) value));
        default -> throw new IllegalStateException("no JSON form for " + column);
      }
    }
    try {
      return MAPPER.writeValueAsBytes(json);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a client row", e);
    }
  }

  /**
   * The values of {@link #TABLE}'s columns in a record value.
   *
   * @throws IllegalArgumentException when it is not a client row: not a JSON object, a required
   *     column missing, a value of the wrong type
   */
  public static Object[] read(byte[] value) {
    JsonNode json;
    try {
      json = MAPPER.readTree(value);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
    if (json == null || !json.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    List<Column<? super ClientTiming.Stored>> columns = ClientTiming.TABLE.columns();
    Object[] row = new Object[columns.size()];
    for (int i = 0; i < row.length; i++) {
      Column<?> column = columns.get(i);
      JsonNode field = json.get(column.name());
      if (field == null || field.isNull()) {
        if (!column.nullable() && column.defaultSql() == null) {
          throw new IllegalArgumentException("missing " + column.name());
        }
        row[i] = column.nullable() ? null : defaultOf(column);
        continue;
      }
      row[i] = value(column, field);
    }
    return row;
  }

  private static @Nullable Object defaultOf(Column<?> column) {
    return column.type() == ColumnType.BOOLEAN ? Boolean.valueOf(column.defaultSql()) : null;
  }

  private static Object value(Column<?> column, JsonNode field) {
    boolean ok =
        switch (column.type()) {
          case VARCHAR -> field.isTextual();
          case INTEGER -> field.canConvertToInt() && field.isIntegralNumber();
          case BIGINT, TIMESTAMP -> field.canConvertToLong() && field.isIntegralNumber();
          case DOUBLE -> field.isNumber();
          case BOOLEAN -> field.isBoolean();
          default -> false;
        };
    if (!ok) {
      throw new IllegalArgumentException("bad " + column.name() + ": " + field);
    }
    return switch (column.type()) {
      case VARCHAR -> field.textValue();
      case INTEGER -> field.intValue();
      case BIGINT -> field.longValue();
      case DOUBLE -> field.doubleValue();
      case BOOLEAN -> field.booleanValue();
      case TIMESTAMP -> instant(field.longValue());
      default -> throw new IllegalStateException("no JSON form for " + column);
    };
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
  }

  private static Instant instant(long micros) {
    return Instant.ofEpochSecond(
        Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L);
  }

  private static TableSchema<Object[]> flat(TableSchema<?> table) {
    List<Column<Object[]>> columns = new ArrayList<>();
    for (int i = 0; i < table.columns().size(); i++) {
      Column<?> column = table.columns().get(i);
      int index = i;
      columns.add(
          new Column<>(
              column.name(), column.type(), column.nullable(), column.defaultSql(), r -> r[index]));
    }
    return new TableSchema<>(table.name(), columns);
  }
}
