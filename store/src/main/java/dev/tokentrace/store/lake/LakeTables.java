package dev.tokentrace.store.lake;

import dev.tokentrace.clients.ClientRowJson;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.TableSchema;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The tables the lake holds: every event table, {@code rejects} and {@code client_timing} (the rows
 * {@code ship --follow} streams from client and gateway files), the tables a sink writes
 * (docs/storage.md#lake-layout). Tables written by SQL, and client rows loaded by {@code clients},
 * stay in the DuckDB file.
 */
public final class LakeTables {
  /**
   * In the order of the sink's tables: the event tables, {@code rejects}, {@code client_timing}.
   */
  public static final List<TableSchema<?>> ALL = all();

  private LakeTables() {}

  /** The lake table of that name, or null. */
  public static @Nullable TableSchema<?> named(String name) {
    for (TableSchema<?> table : ALL) {
      if (table.name().equals(name)) {
        return table;
      }
    }
    return null;
  }

  /**
   * {@code CAST(name AS TYPE) AS name, …} in table order: the select list every view and every
   * compaction uses, so a file written before a column was added reads it as NULL.
   */
  static String selectList(TableSchema<?> table) {
    StringBuilder sql = new StringBuilder();
    for (Column<?> column : table.columns()) {
      if (sql.length() > 0) {
        sql.append(", ");
      }
      sql.append("CAST(")
          .append(column.name())
          .append(" AS ")
          .append(column.type().sql())
          .append(") AS ")
          .append(column.name());
    }
    return sql.toString();
  }

  /** {@code SELECT CAST(NULL AS TYPE) AS name, … WHERE false}: the table with no file yet. */
  static String emptySelect(TableSchema<?> table) {
    StringBuilder sql = new StringBuilder("SELECT ");
    List<String> columns = new ArrayList<>();
    for (Column<?> column : table.columns()) {
      columns.add("CAST(NULL AS " + column.type().sql() + ") AS " + column.name());
    }
    return sql.append(String.join(", ", columns)).append(" WHERE false").toString();
  }

  /**
   * A select with the table's columns whose every read fails with {@code reason}: the view of a
   * table one of whose files cannot be read (docs/storage.md#a-file-that-cannot-be-read). Each
   * column and the filter call DuckDB's {@code error()}, so a count, a filter on any column and a
   * projection all raise it (a constant column would let the optimizer answer without reading).
   */
  static String unreadableSelect(TableSchema<?> table, String reason) {
    String error = "error(" + literal(reason) + ")";
    List<String> columns = new ArrayList<>();
    for (Column<?> column : table.columns()) {
      columns.add("CAST(" + error + " AS " + column.type().sql() + ") AS " + column.name());
    }
    return "SELECT " + String.join(", ", columns) + " FROM range(1) WHERE " + error + " IS NULL";
  }

  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }

  private static List<TableSchema<?>> all() {
    List<TableSchema<?>> tables = new ArrayList<>(EventTables.ALL);
    tables.add(RejectRow.TABLE);
    tables.add(ClientRowJson.TABLE);
    return List.copyOf(tables);
  }
}
