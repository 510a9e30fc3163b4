package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clients} given a tool's output folder (its load read from the aggregate file) or a quoted
 * glob, with files written by hand to the documented layouts
 * (docs/formats/client-files.md#output-folders).
 */
final class ClientsInputsTest {
  @TempDir Path dir;

  /** One AIPerf record of the 2025-11 schema (docs/formats/client-files.md#aiperf-schemas). */
  private static String aiperfRecord(String id, long startNs) {
    return "{\"metadata\": {\"x_request_id\": \""
        + id
        + "\", \"request_start_ns\": "
        + startNs
        + ", \"request_end_ns\": "
        + (startNs + 900_000_000L)
        + ", \"benchmark_phase\": \"profiling\", \"was_cancelled\": false},"
        + " \"metrics\": {\"time_to_first_token\": {\"value\": 40.0, \"unit\": \"ms\"},"
        + " \"request_latency\": {\"value\": 900.0, \"unit\": \"ms\"},"
        + " \"output_sequence_length\": {\"value\": 50, \"unit\": \"tokens\"},"
        + " \"input_sequence_length\": {\"value\": 100, \"unit\": \"tokens\"}}, \"error\": null}\n";
  }

  @Test
  void anAiperfArtifactsFolderIsLoadedAtTheConcurrencyOfItsAggregateFile() throws Exception {
    Path run = Files.createDirectories(dir.resolve("artifacts/qwen-c4"));
    Files.writeString(
        run.resolve("profile_export.jsonl"),
        aiperfRecord("r-1", 1_767_000_000_000_000_000L)
            + aiperfRecord("r-2", 1_767_000_001_000_000_000L));
    Files.writeString(
        run.resolve("profile_export_aiperf.json"),
        "{\"input_config\": {\"loadgen\": {\"concurrency\": 4}}}");
    Path db = dir.resolve("run.duckdb");

    SqlRuns.Result loaded =
        SqlRuns.run("clients", "--db", db.toString(), dir.resolve("artifacts").toString());

    assertThat(loaded.code()).as(loaded.err()).isZero();
    assertThat(loaded.err())
        .contains("clients: AIPerf output: " + run.resolve("profile_export.jsonl"))
        .contains("from profile_export_aiperf.json: concurrency 4")
        .contains("rows=2");
    SqlRuns.Result levels =
        SqlRuns.run(
            "sql",
            "--db",
            db.toString(),
            "-e",
            "SELECT DISTINCT concurrency FROM client_timing",
            "--format",
            "csv");
    assertThat(levels.out()).isEqualTo("concurrency\n4\n");
  }

  @Test
  void theRequestRateOfAnAggregateFileIsKeptWithTheRunAndReachesTheReport() throws Exception {
    Path run = Files.createDirectories(dir.resolve("genai"));
    Files.writeString(
        run.resolve("profile_export.jsonl"),
        aiperfRecord("r-1", 1_767_000_000_000_000_000L)
            + aiperfRecord("r-2", 1_767_000_001_000_000_000L));
    Files.writeString(
        run.resolve("profile_export_aiperf.json"),
        "{\"input_config\": {\"loadgen\": {\"request_rate\": 2.5}}}");
    Path db = dir.resolve("run.duckdb");

    SqlRuns.Result loaded =
        SqlRuns.run("clients", "--db", db.toString(), "--run-id", "rated", run.toString());

    assertThat(loaded.code()).as(loaded.err()).isZero();
    assertThat(loaded.err()).contains("request rate 2.5/s");
    SqlRuns.Result rate =
        SqlRuns.run(
            "sql",
            "--db",
            db.toString(),
            "-e",
            "SELECT json_extract_string(params, '$.request_rate') AS rate FROM runs"
                + " WHERE run_id = 'rated'",
            "--format",
            "csv");
    assertThat(rate.out()).isEqualTo("rate\n2.5\n");
    SqlRuns.Result report = SqlRuns.run("report", "--db", db.toString(), "--format", "md");
    // the Markdown wraps long lines: compare with single spaces
    assertThat(report.out().replaceAll("\\s+", " "))
        .as(report.err())
        .contains(
            "concurrency unknown (not recorded: pass --concurrency to `tokentrace clients`);"
                + " request rate 2.5/s (the tool's aggregate file).");
  }

  @Test
  void aQuotedGlobLoadsEveryFileItMatches() throws Exception {
    String header = "request_id,start_ts,ttft_ms,e2e_ms,output_tokens\n";
    Files.createDirectories(dir.resolve("runs/a"));
    Files.createDirectories(dir.resolve("runs/b"));
    Files.writeString(dir.resolve("runs/a/c1.csv"), header + "k-1,2026-03-02T09:00:01Z,10,20,5\n");
    Files.writeString(dir.resolve("runs/b/c1.csv"), header + "k-2,2026-03-02T09:00:02Z,10,20,5\n");
    Path db = dir.resolve("glob.duckdb");

    SqlRuns.Result loaded =
        SqlRuns.run("clients", "--db", db.toString(), dir.resolve("runs") + "/**/*.csv");
    assertThat(loaded.code()).as(loaded.err()).isZero();
    assertThat(loaded.err()).contains("rows=2");

    SqlRuns.Result none =
        SqlRuns.run("clients", "--db", db.toString(), dir.resolve("runs") + "/*.jsonl");
    assertThat(none.code()).isEqualTo(ExitCodes.USAGE);
    assertThat(none.err()).contains("/*.jsonl: no file matches this pattern");
  }
}
