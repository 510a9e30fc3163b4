package dev.tokentrace.correlate.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.ReleaseOneFile;
import dev.tokentrace.table.TableSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The DDL generated from each column descriptor makes the same table as {@code sql/schema/}: same
 * columns in the same order, types, nullability and defaults, as DuckDB itself reports them.
 */
final class SchemaDescriptorsTest {
  private static final String COLUMNS =
      "SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns"
          + " WHERE table_schema = 'main' AND table_name = ? ORDER BY ordinal_position";

  @TempDir Path dir;

  static Stream<TableSchema<?>> described() {
    List<TableSchema<?>> tables = new ArrayList<>(EventTables.ALL);
    tables.add(ClientTiming.TABLE);
    tables.add(RejectRow.TABLE);
    return tables.stream();
  }

  @ParameterizedTest
  @MethodSource("described")
  void generatedDdlEqualsSqlSchema(TableSchema<?> table) throws SQLException {
    try (Connection fromFiles = DriverManager.getConnection("jdbc:duckdb:");
        Connection generated = DriverManager.getConnection("jdbc:duckdb:")) {
      Database.applySchema(fromFiles, "mem");
      try (Statement statement = generated.createStatement()) {
        statement.execute(table.createTable());
      }

      List<String> expected = columns(fromFiles, table.name());
      assertThat(expected).as("sql/schema has table " + table.name()).isNotEmpty();
      assertThat(columns(generated, table.name())).isEqualTo(expected);
    }
  }

  /** A file of the last release before schema versions, migrated: the described tables. */
  @ParameterizedTest
  @MethodSource("described")
  void aMigratedReleaseOneFileHasTheDescribedTables(TableSchema<?> table) throws Exception {
    Path file = ReleaseOneFile.create(dir.resolve("v1.duckdb"));
    try (Database database = Database.open(DatabaseSettings.file(file));
        Connection migrated = database.newConnection();
        Connection generated = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = generated.createStatement()) {
      statement.execute(table.createTable());
      assertThat(columns(migrated, table.name())).isEqualTo(columns(generated, table.name()));
    }
  }

  static List<String> columns(Connection connection, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement(COLUMNS)) {
      statement.setString(1, table);
      try (ResultSet row = statement.executeQuery()) {
        while (row.next()) {
          columns.add(
              String.join(
                  " ",
                  row.getString(1),
                  row.getString(2),
                  "YES".equals(row.getString(3)) ? "NULL" : "NOT NULL",
                  "DEFAULT " + row.getString(4)));
        }
      }
    }
    return columns;
  }
}
