package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/**
 * What the P/D accuracy tests share (docs/formats/pd.md#truth): the simulator's {@code truth.csv}
 * by request, the attribution's P/D columns by request, and a command run in this JVM that must
 * succeed.
 */
final class PdRows {
  private PdRows() {}

  /** {@code truth.csv}: request ID → column → value, in file order. */
  static Map<String, Map<String, String>> truth(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, UTF_8);
    String[] header = lines.get(0).split(",");
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] fields = line.split(",", -1);
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], fields[i]);
      }
      rows.put(fields[0], row);
    }
    return rows;
  }

  /** {@code request_attribution}'s P/D-relevant columns: request ID → column → value. */
  static Map<String, Map<String, Object>> attributed(Path db) throws SQLException {
    Map<String, Map<String, Object>> rows = new HashMap<>();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT request_id, included, join_status, instance, decode_instance,"
                    + " kv_transfer_source, client_queue_ms, network_ms, queue_ms, prefill_ms,"
                    + " kv_transfer_ms, decode_queue_ms, decode_ms FROM request_attribution")) {
      int columns = row.getMetaData().getColumnCount();
      while (row.next()) {
        Map<String, Object> values = new HashMap<>();
        for (int i = 2; i <= columns; i++) {
          values.put(row.getMetaData().getColumnName(i), row.getObject(i));
        }
        rows.put(row.getString(1), values);
      }
    }
    return rows;
  }

  /** Runs a tokentrace command in this JVM, asserts exit 0 (stderr in the message), its stdout. */
  static String run(String... args) {
    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(out, true));
    assertThat(command.execute(args)).as(String.join(" ", args) + ": " + err).isZero();
    return out.toString();
  }
}
