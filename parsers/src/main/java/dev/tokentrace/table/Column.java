package dev.tokentrace.table;

import static java.util.Objects.requireNonNull;

import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One column of a stored table: its name (also the JSON field name for event tables), DuckDB type,
 * whether it may be NULL, an optional SQL default, and the accessor that reads its value from a row
 * object. The accessor is a plain lambda or method reference: writers call it per row, no
 * reflection.
 *
 * @param <R> the row object the accessor reads
 */
public record Column<R>(
    String name,
    ColumnType type,
    boolean nullable,
    @Nullable String defaultSql,
    Function<? super R, ? extends @Nullable Object> accessor) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

  public Column {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    requireNonNull(accessor, "accessor is null");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("column name must be lower snake_case: '" + name + "'");
    }
  }

  /** The value of this column in {@code row}, of {@link ColumnType#javaType()} or null. */
  public @Nullable Object get(R row) {
    return accessor.apply(row);
  }

  /** {@code name TYPE [NOT NULL] [DEFAULT ...]}, as in {@code CREATE TABLE}. */
  public String definition() {
    StringBuilder sql = new StringBuilder(name).append(' ').append(type.sql());
    if (!nullable) {
      sql.append(" NOT NULL");
    }
    if (defaultSql != null) {
      sql.append(" DEFAULT ").append(defaultSql);
    }
    return sql.toString();
  }

  /** This column with a SQL default (for rows inserted by name without it). */
  public Column<R> withDefault(String sql) {
    return new Column<>(name, type, nullable, requireNonNull(sql, "sql is null"), accessor);
  }

  @Override
  public String toString() {
    return definition();
  }
}
