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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code tokentrace analyze}: the README's one command from logs and a client file or folder to a
 * report, through a real embedded broker into DuckDB.
 */
final class AnalyzeIT {
  private static final Path SCENARIO = GoldenSamplesTest.SAMPLES.resolve("vllm/v0.7-baseline");

  @TempDir Path out;
  @TempDir Path artifacts;

  private final StringWriter stdout = new StringWriter();
  private final StringWriter stderr = new StringWriter();

  private int analyze(String... args) {
    CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setOut(new PrintWriter(stdout));
    commandLine.setErr(new PrintWriter(stderr));
    String[] all = new String[args.length + 1];
    all[0] = "analyze";
    System.arraycopy(args, 0, all, 1, args.length);
    return commandLine.execute(all);
  }

  @Test
  void logsAndAClientFileBecomeAReportInOneCommandThatSaysEachStep() throws Exception {
    int code =
        analyze(
            SCENARIO.resolve("server.log").toString(),
            SCENARIO.resolve("otlp.jsonl").toString(),
            "--year",
            "2025",
            "--zone",
            "UTC",
            "--clients",
            SCENARIO.resolve("client_timings.csv").toString(),
            "--out",
            out.toString());

    String err = stderr.toString();
    assertThat(code).as(err).isZero();
    assertThat(err)
        .contains("analyze: tokentrace ingest --db " + out.resolve("analysis.duckdb"))
        .contains("analyze: tokentrace clients --db ")
        .contains("analyze: tokentrace correlate --db ")
        .contains("analyze: tokentrace report --db ")
        .contains("ingest: in-process (no broker): 2 files")
        .contains("analyze: done")
        .contains("client_timings.csv: csv (detected), ")
        .contains("  html report: " + out.resolve("report.html").toAbsolutePath().normalize());
    assertThat(Files.readString(out.resolve("report.md"))).contains("## Latency attribution");
    // the answer on the terminal, as demo prints it: the attribution table and the bottleneck
    assertThat(stdout.toString())
        .contains("## Latency attribution")
        .contains("| component ")
        .contains("## Bottleneck")
        .isEqualTo(
            String.join("\n", DemoSummary.of(Files.readString(out.resolve("report.md")))) + "\n");
    assertThat(Files.readString(out.resolve("report.html"))).startsWith("<!DOCTYPE html>");
    assertThat(Files.readAllLines(out.resolve("attribution.csv")).get(0))
        .startsWith("request_key,");
    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:" + out.resolve("analysis.duckdb"));
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT (SELECT count(*) FROM request_attribution),"
                    + " (SELECT count(*) FROM client_timing)")) {
      rows.next();
      assertThat(rows.getLong(1)).isPositive();
      assertThat(rows.getLong(2)).isPositive();
    }

    // again into the same folder: the files already loaded are skipped, and that is said
    stderr.getBuffer().setLength(0);
    assertThat(
            analyze(
                SCENARIO.resolve("server.log").toString(),
                "--year",
                "2025",
                "--clients",
                SCENARIO.resolve("client_timings.csv").toString(),
                "--out",
                out.toString()))
        .as(stderr.toString())
        .isZero();
    assertThat(stderr.toString()).contains("exists and is reused");
  }

  @Test
  void aFailingStepStopsTheRestAndNamesIt() throws Exception {
    int code =
        analyze(
            SCENARIO.resolve("server.log").toString(),
            "--clients",
            artifacts.resolve("missing.csv").toString(),
            "--out",
            out.toString());

    String err = stderr.toString();
    assertThat(code).as(err).isEqualTo(ExitCodes.USAGE);
    assertThat(err)
        .contains("analyze: stopped: 'clients' exited 2; later steps not run")
        .doesNotContain("analyze: tokentrace correlate");
    assertThat(out.resolve("report.md")).doesNotExist();
  }
}
