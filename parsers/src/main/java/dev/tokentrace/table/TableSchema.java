package dev.tokentrace.table;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A stored table: its name and its columns in table order. Appender rows are written in this order
 * (the Appender is positional), so a column added later by a migration goes at the end here too.
 *
 * @param <R> the row object every column's accessor reads
 */
public class TableSchema<R> {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

  private final String name;
  private final List<Column<? super R>> columns;

  public TableSchema(String name, List<? extends Column<? super R>> columns) {
    requireNonNull(name, "name is null");
    requireNonNull(columns, "columns is null");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("table name must be lower snake_case: '" + name + "'");
    }
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("table " + name + " has no columns");
    }
    Set<String> names = new HashSet<>();
    for (Column<? super R> column : columns) {
      if (!names.add(column.name())) {
        throw new IllegalArgumentException(
            "table " + name + ": column " + column.name() + " twice");
      }
    }
    this.name = name;
    this.columns = List.copyOf(columns);
  }

  public final String name() {
    return name;
  }

  /** Every column in table order. */
  public final List<Column<? super R>> columns() {
    return columns;
  }

  /** The position of the named column, or -1. */
  public final int indexOf(String column) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(column)) {
        return i;
      }
    }
    return -1;
  }

  /** {@code CREATE TABLE IF NOT EXISTS name (...);} with one column per line. */
  public final String createTable() {
    StringBuilder sql =
        new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(name).append(" (\n");
    for (int i = 0; i < columns.size(); i++) {
      sql.append("    ").append(columns.get(i).definition());
      sql.append(i + 1 < columns.size() ? ",\n" : "\n");
    }
    return sql.append(");\n").toString();
  }

  @Override
  public String toString() {
    return name + columns;
  }

  /** Starts a column list for rows of type {@code R}. */
  public static <R> Columns<R> columns(Class<R> rowType) {
    requireNonNull(rowType, "rowType is null");
    return new Columns<>();
  }

  /**
   * Builds a column list in table order: {@code required} columns are NOT NULL, {@code optional}
   * ones nullable.
   */
  public static final class Columns<R> {
    private final List<Column<R>> columns = new ArrayList<>();

    private Columns() {}

    public Columns<R> required(
        String name, ColumnType type, Function<? super R, ? extends @Nullable Object> accessor) {
      columns.add(new Column<>(name, type, false, null, accessor));
      return this;
    }

    public Columns<R> optional(
        String name, ColumnType type, Function<? super R, ? extends @Nullable Object> accessor) {
      columns.add(new Column<>(name, type, true, null, accessor));
      return this;
    }

    public Columns<R> add(Column<R> column) {
      columns.add(requireNonNull(column, "column is null"));
      return this;
    }

    public List<Column<R>> list() {
      return List.copyOf(columns);
    }
  }
}
