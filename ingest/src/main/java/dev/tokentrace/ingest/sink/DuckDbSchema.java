package dev.tokentrace.ingest.sink;

import dev.tokentrace.store.Database;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.TableSchema;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies the store's schema and checks that the tables the sink writes have exactly the columns of
 * their descriptors ({@link SinkTables}), so that a schema change fails at startup with both column
 * lists, not with an Appender type error in the middle of a batch.
 */
final class DuckDbSchema {
  private static final String COLUMNS =
      "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
          + " WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position";

  /** The columns {@link SinkDatabase} reads and writes, in table order. */
  private static final List<String> OFFSET_COLUMNS =
      List.of(
          "topic VARCHAR NOT NULL",
          "part INTEGER NOT NULL",
          "next_offset BIGINT NOT NULL",
          "topic_id VARCHAR NOT NULL");

  private DuckDbSchema() {}

  /**
   * Migrates the schema to the store's latest version ({@link Database#applySchema}); call in
   * auto-commit mode.
   */
  static void apply(Connection connection, String name) {
    Database.applySchema(connection, name);
  }

  /**
   * @throws IllegalStateException naming the table and both column lists on a mismatch
   */
  static void verify(Connection connection) throws SQLException {
    for (TableSchema<?> table : SinkTables.ALL) {
      verify(connection, table);
    }
    verify(connection, "kafka_offsets", OFFSET_COLUMNS);
  }

  /**
   * Checks that {@code table} exists with exactly the descriptor's columns: names, types and
   * nullability, in order (Appender rows are positional).
   *
   * @throws IllegalStateException naming the table and both column lists on a mismatch
   */
  static void verify(Connection connection, TableSchema<?> table) throws SQLException {
    List<String> expected = new ArrayList<>();
    for (Column<?> column : table.columns()) {
      expected.add(
          column.name() + " " + column.type().sql() + (column.nullable() ? "" : " NOT NULL"));
    }
    verify(connection, table.name(), expected);
  }

  private static void verify(Connection connection, String table, List<String> expected)
      throws SQLException {
    List<String> actual = columns(connection, table);
    if (!actual.equals(expected)) {
      throw new IllegalStateException(
          "sql/schema and the DuckDB sink disagree on table "
              + table
              + ": the sink writes "
              + expected
              + " but the table has "
              + actual);
    }
  }

  private static List<String> columns(Connection connection, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(COLUMNS)) {
      statement.setString(1, table);
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          boolean nullable = "YES".equals(result.getString(3));
          columns.add(
              result.getString(1) + " " + result.getString(2) + (nullable ? "" : " NOT NULL"));
        }
      }
    }
    return columns;
  }
}
