package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The quick start's main job, in process: every sample through a real embedded broker into DuckDB,
 * correlated and reported. The prefill/decode sample (samples/pd/, docs/formats/pd.md#samples) is
 * attributed as P/D requests with their KV transfer, and the single-server scenarios' attribution
 * is unchanged by it: row for row ({@code EXCEPT ALL} both ways) the demo's attribution before the
 * P/D sample existed, {@value #SINGLE_SERVER} (every column but the file paths, which depend on the
 * checkout).
 */
final class DemoIT {
  /**
   * The demo's request_attribution before P/D (single-server samples only), path columns left out.
   */
  static final String SINGLE_SERVER = "src/test/resources/demo-single-server-attribution.parquet";

  @TempDir Path out;

  @Test
  void demoRunsEndToEndAndPrintsTheAttributionReport() throws Exception {
    CommandLine commandLine = TokentraceMain.commandLine();
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    commandLine.setOut(new PrintWriter(stdout));
    commandLine.setErr(new PrintWriter(stderr));

    int code =
        commandLine.execute(
            "demo", "--samples", GoldenSamplesTest.SAMPLES.toString(), "--out", out.toString());

    assertThat(code).as(stderr.toString()).isZero();
    String report = stdout.toString();
    assertThat(report)
        .contains("## Latency attribution")
        .contains("| component ")
        .contains("P50 ms")
        .contains("P95 ms")
        .containsPattern("\\| network +\\|")
        .containsPattern("\\| queueing \\(server\\) +\\|")
        .containsPattern("\\| prefill +\\|")
        .containsPattern("\\| decode +\\|")
        .containsPattern("\\| kv transfer +\\|")
        .containsPattern("\\| queueing \\(decode\\) +\\|")
        .contains("## Bottleneck");
    assertThat(stderr.toString()).contains("kafka: embedded broker on 127.0.0.1:");
    assertThat(out.resolve("report.md")).exists();
    Path html = out.resolve("report.html");
    assertThat(Files.readString(html)).startsWith("<!DOCTYPE html>").contains("<svg ");
    List<String> lines = stderr.toString().lines().toList();
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo("  html report: " + html.toAbsolutePath().normalize());
    // a compact summary, not the whole report: that is in report.md
    assertThat(stdout.toString().lines().count() + lines.size())
        .as("demo output lines (stdout and stderr)")
        .isLessThanOrEqualTo(DemoSummary.MAX_LINES);
    assertThat(report).doesNotContain("## Findings by run").doesNotContain("## Environment");
    // the README quotes this output: it must be what the demo prints now
    List<String> done =
        lines.subList(
            lines.indexOf(lines.stream().filter(l -> l.startsWith("demo: done")).findFirst().get()),
            lines.size());
    QuotedOutputs.assertQuoted(
        "demo",
        report.stripTrailing() + "\n\n" + String.join("\n", done),
        out.toString(),
        "tokentrace-demo");
    assertThat(Files.readString(out.resolve("report.md")))
        .contains("## Findings by run")
        .contains("## Suggestions");
    assertThat(stderr.toString()).contains("  full report: " + out.resolve("report.md"));
    assertThat(Files.readAllLines(out.resolve("attribution.csv")).get(0))
        .startsWith(
            "request_key,client_ttft_ms,client_e2e_ms,client_queue_ms,network_ms,queue_ms,"
                + "prefill_ms,decode_ms,dominant");

    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:" + out.resolve("demo.duckdb"));
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT (SELECT count(*) FROM request_timing), (SELECT count(*) FROM rejects),"
                    + " (SELECT count(DISTINCT engine) FROM batch_step)")) {
      rows.next();
      assertThat(rows.getLong(1)).isPositive();
      assertThat(rows.getLong(2)).as("sample lines rejected").isZero();
      assertThat(rows.getLong(3)).as("engines with batch steps").isEqualTo(2);
    }
    singleServerUnchangedAndPdAttributed(out.resolve("demo.duckdb"));
  }

  private static void singleServerUnchangedAndPdAttributed(Path db) throws Exception {
    Path golden = Path.of(SINGLE_SERVER).toAbsolutePath();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement()) {
      String columns;
      try (ResultSet names =
          statement.executeQuery(
              "SELECT string_agg(column_name, ', ') FROM (DESCRIBE SELECT * FROM read_parquet('"
                  + golden
                  + "'))")) {
        names.next();
        columns = names.getString(1);
      }
      String now = "SELECT " + columns + " FROM request_attribution WHERE run_id NOT LIKE 'pd-%'";
      String before = "SELECT " + columns + " FROM read_parquet('" + golden + "')";
      assertThat(count(statement, before)).isPositive();
      assertThat(count(statement, "(" + now + ") EXCEPT ALL (" + before + ")"))
          .as("single-server rows that differ from the attribution before P/D")
          .isZero();
      assertThat(count(statement, "(" + before + ") EXCEPT ALL (" + now + ")"))
          .as("single-server rows of before P/D missing now")
          .isZero();
      long pdClients = count(statement, "SELECT * FROM client_timing WHERE run_id LIKE 'pd-%'");
      assertThat(pdClients).as("P/D sample's client rows").isPositive();
      assertThat(
              count(
                  statement,
                  "SELECT * FROM request_attribution WHERE run_id LIKE 'pd-%' AND included"
                      + " AND decode_instance IS NOT NULL AND kv_transfer_ms IS NOT NULL"))
          .as("P/D sample's requests attributed with their transfer")
          .isEqualTo(pdClients);
    }
  }

  private static long count(Statement statement, String query) throws Exception {
    try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM (" + query + ")")) {
      rows.next();
      return rows.getLong(1);
    }
  }
}
