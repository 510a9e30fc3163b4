package dev.tokentrace.ingest.sink;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

final class DuckDbSchemaTest {
  @Test
  void theTablesOfTheSchemaHaveExactlyTheColumnsTheSinkWrites() throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
      DuckDbSchema.apply(connection, "mem");
      DuckDbSchema.apply(connection, "mem"); // idempotent: already at the latest version

      DuckDbSchema.verify(connection);
    }
  }

  @Test
  void namesTheTableAndBothColumnListsWhenTheSchemaDiffers() throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE request_aborted (engine VARCHAR, instance VARCHAR, ts TIMESTAMP,"
              + " source_path VARCHAR, source_line INTEGER, source_offset BIGINT,"
              + " request_id VARCHAR, request_key VARCHAR, reason VARCHAR)");
      DuckDbSchema.apply(connection, "mem");

      assertThatThrownBy(() -> DuckDbSchema.verify(connection))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("sql/schema and the DuckDB sink disagree on table request_aborted")
          .hasMessageContaining("source_line BIGINT")
          .hasMessageContaining("source_line INTEGER");
    }
  }
}
