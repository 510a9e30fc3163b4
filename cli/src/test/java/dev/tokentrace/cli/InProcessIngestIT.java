package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EventTable;
import dev.tokentrace.event.EventTables;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue [3.3] item 5: batch {@code ingest} without {@code --bootstrap-servers} loads in-process (no
 * broker start) and stores the same rows as through the embedded broker: every event table, {@code
 * rejects} and the {@code ingest_files} ledger, compared with {@code EXCEPT ALL} both ways
 * (docs/design.md#embedded-broker). Columns that legitimately differ are left out: {@code
 * rejects.ingested_ts} and {@code ingest_files.loaded_ts} (when the run happened); {@code
 * kafka_offsets} is not compared (the in-process path consumes no topic).
 */
final class InProcessIngestIT {
  private static final Path SAMPLES = GoldenSamplesTest.SAMPLES;

  @TempDir Path dir;

  @Test
  void inProcessAndThroughTheBrokerStoreTheSameRowsAndARunAgainSkipsEveryFile() throws Exception {
    Path direct = dir.resolve("direct.duckdb");
    Path broker = dir.resolve("broker.duckdb");

    String directErr = ingest(direct, false);
    String brokerErr = ingest(broker, true);

    assertThat(directErr)
        .contains("ingest: in-process (no broker): 6 files")
        .doesNotContain("embedded kafka broker");
    assertThat(brokerErr)
        .contains("embedded kafka broker on 127.0.0.1:")
        .doesNotContain("in-process");
    List<String> compared = new ArrayList<>();
    for (EventTable<?> table : EventTables.ALL) {
      compared.add("SELECT * FROM %s." + table.name());
    }
    compared.add("SELECT * EXCLUDE (ingested_ts) FROM %s.rejects");
    compared.add("SELECT * EXCLUDE (loaded_ts) FROM %s.ingest_files");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + direct + "' AS d (READ_ONLY)");
      statement.execute("ATTACH '" + broker + "' AS b (READ_ONLY)");
      long events = 0;
      for (String query : compared) {
        events += count(statement, "SELECT count(*) FROM (" + query.formatted("d") + ")");
        for (String[] pair : new String[][] {{"d", "b"}, {"b", "d"}}) {
          String difference = query.formatted(pair[0]) + " EXCEPT ALL " + query.formatted(pair[1]);
          assertThat(rows(statement, difference + " LIMIT 3"))
              .as("%s: rows of %s not in %s", query, pair[0], pair[1])
              .isEmpty();
        }
      }
      assertThat(events).as("rows compared").isGreaterThan(1000);
      assertThat(count(statement, "SELECT count(*) FROM d.rejects")).as("rejects").isPositive();
      assertThat(count(statement, "SELECT count(*) FROM d.kafka_offsets")).isZero();
    }

    String again = ingest(direct, false);
    assertThat(again)
        .contains("already loaded")
        .contains("ingest: every file is loaded already; nothing to do")
        .doesNotContain("in-process");
  }

  private static List<String> rows(Statement statement, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (ResultSet result = statement.executeQuery(sql)) {
      int columns = result.getMetaData().getColumnCount();
      while (result.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(result.getMetaData().getColumnName(i)).append('=');
          row.append(result.getString(i)).append(' ');
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /** Ingests the sample files (server logs, exports and a GPU file with bad lines); the stderr. */
  private static String ingest(Path db, boolean viaBroker) {
    List<String> args =
        new ArrayList<>(
            List.of("ingest", "--db", db.toString(), "--year", "2025", "--zone", "UTC"));
    if (viaBroker) {
      args.add("--via-broker");
    }
    for (String file :
        List.of(
            "vllm/v0.7-baseline/server.log",
            "vllm/v0.7-baseline/otlp.jsonl",
            "sglang/v0.5.6-preemption/server.log",
            "trtllm/v1.1-client-queue-bound/server.log",
            "trtllm/v1.1-client-queue-bound/iteration_stats.jsonl",
            "gpu/formats/nvidia-smi-bad-input/gpu.csv")) {
      args.add(SAMPLES.resolve(file).toString());
    }
    CommandLine commandLine = TokentraceMain.commandLine();
    StringWriter err = new StringWriter();
    commandLine.setErr(new PrintWriter(err, true));
    commandLine.setOut(new PrintWriter(new StringWriter(), true));
    int code = commandLine.execute(args.toArray(String[]::new));
    assertThat(code).as(err.toString()).isIn(ExitCodes.OK, ExitCodes.REJECTS);
    return err.toString();
  }
}
