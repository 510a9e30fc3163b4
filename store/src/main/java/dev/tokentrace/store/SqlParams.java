package dev.tokentrace.store;

import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import org.jdbi.v3.core.statement.ColonPrefixSqlParser;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jspecify.annotations.Nullable;

/**
 * Named parameters of the SQL files: the names Jdbi finds in a text, and typed binding of values
 * given as text ({@code --param limit=20}) by the type the file's header declares. A parameter left
 * unset is bound as a typed NULL; the SQL supplies its default with {@code coalesce}.
 */
public final class SqlParams {
  private static final ColonPrefixSqlParser PARSER = new ColonPrefixSqlParser();

  private SqlParams() {}

  /** The distinct parameter names Jdbi will bind in {@code sql}, in order of first use. */
  public static List<String> namesIn(String sql) {
    // the parser never touches the statement context for named-parameter extraction
    return PARSER.parse(sql, null).getParameters().getParameterNames().stream().distinct().toList();
  }

  /**
   * Binds {@code value} (text, or null for "use the default") to {@code name} as {@code type}.
   *
   * @throws IllegalArgumentException naming the parameter, its type and the bad value
   */
  public static void bind(
      SqlStatement<?> statement, String name, String type, @Nullable String value) {
    if (value == null) {
      statement.bindNull(name, sqlType(type));
      return;
    }
    statement.bindByType(name, convert(name, type, value), javaType(type));
  }

  /** The text value converted to the Java type for {@code type}. */
  public static Object convert(String name, String type, String value) {
    String text = value.strip();
    try {
      switch (type) {
        case "VARCHAR":
          return value;
        case "INTEGER":
          return Integer.valueOf(text);
        case "BIGINT":
          return Long.valueOf(text);
        case "DOUBLE":
          return Double.valueOf(text);
        case "BOOLEAN":
          return parseBoolean(text);
        case "TIMESTAMP":
          return LocalDateTime.ofInstant(Instant.parse(text), ZoneOffset.UTC);
        default:
          throw new IllegalArgumentException("param " + name + ": unsupported type " + type);
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new IllegalArgumentException(
          "param " + name + ": '" + value + "' is not a " + type.toLowerCase(Locale.ROOT), e);
    }
  }

  private static Boolean parseBoolean(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("true") || lower.equals("false")) {
      return Boolean.valueOf(lower);
    }
    throw new NumberFormatException("not a boolean: " + text);
  }

  private static Class<?> javaType(String type) {
    switch (type) {
      case "INTEGER":
        return Integer.class;
      case "BIGINT":
        return Long.class;
      case "DOUBLE":
        return Double.class;
      case "BOOLEAN":
        return Boolean.class;
      case "TIMESTAMP":
        return LocalDateTime.class;
      default:
        return String.class;
    }
  }

  /** The JDBC type for a header type, for typed NULLs. */
  public static int sqlType(String type) {
    switch (type) {
      case "INTEGER":
        return Types.INTEGER;
      case "BIGINT":
        return Types.BIGINT;
      case "DOUBLE":
        return Types.DOUBLE;
      case "BOOLEAN":
        return Types.BOOLEAN;
      case "TIMESTAMP":
        return Types.TIMESTAMP;
      default:
        return Types.VARCHAR;
    }
  }
}
