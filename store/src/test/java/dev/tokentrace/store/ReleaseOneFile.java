package dev.tokentrace.store;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A DuckDB file as the last release before schema versions wrote it: the schema files it applied on
 * every open (test resource {@code schema-v1/}, a verbatim copy), no {@code schema_version}, and
 * one row in {@code request_timing} and {@code client_timing}. Shared with the modules above
 * through the test-jar.
 */
public final class ReleaseOneFile {
  private ReleaseOneFile() {}

  public static Path create(Path file) throws SQLException, IOException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + file);
        Statement statement = connection.createStatement()) {
      for (String line : resource("INDEX").split("\n")) {
        if (!line.isBlank() && !line.startsWith("#")) {
          statement.execute(resource(line.strip()));
        }
      }
      statement.execute(
          "INSERT INTO request_timing (engine, instance, ts, source_path, source_line,"
              + " source_offset, request_id, request_key, source_kind, arrival_mono_s)"
              + " VALUES ('trtllm', 'i', NULL, 'perf.json', 1, 0, '7', '7', 'perf_metrics', 12.5)");
      statement.execute(
          "INSERT INTO client_timing (run_id, client_format, source_path, source_line,"
              + " request_id, request_key, status, itl_max_ms)"
              + " VALUES ('r1', 'csv', 'c.csv', 2, 'a', 'a', 'boom', 3.5)");
    }
    return file;
  }

  private static String resource(String name) throws IOException {
    try (InputStream input =
        ReleaseOneFile.class.getClassLoader().getResourceAsStream("schema-v1/" + name)) {
      if (input == null) {
        throw new IOException("missing test resource schema-v1/" + name);
      }
      return new String(input.readAllBytes(), UTF_8);
    }
  }
}
