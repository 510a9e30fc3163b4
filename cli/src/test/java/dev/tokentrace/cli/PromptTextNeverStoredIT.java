package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A marker word planted in every place a prompt can hide (request lines, errors that print the
 * request, tracebacks quoting it, free-text warnings, prompts printed over several lines, client
 * error texts) for all three engines and the client formats, through the real pipeline: {@code
 * parse}, {@code ingest} (embedded Kafka into DuckDB), {@code clients}, {@code correlate} and
 * {@code report} in Markdown, HTML and JSON. The word must appear in no table, no report, no
 * command output. Lines composed by us to the documented formats (docs/privacy.md).
 */
final class PromptTextNeverStoredIT {
  static final String MARKER = "zebracorn";

  /**
   * Part of every planted secret (issue [3.2] item 2, docs/privacy.md#secrets); compared without
   * case, since an AWS key ID is upper case.
   */
  static final String SECRET = "kiwisecret";

  @TempDir Path dir;

  @Test
  void thePromptWordReachesNoTableNoReportAndNoOutput() throws IOException {
    Path samples = dir.resolve("samples");
    SampleScenarios.Scenario vllm =
        ScenarioDatabase.simulate(samples, "vllm", "leak", 41, "--format-version", "0.16");
    SampleScenarios.Scenario sglang = ScenarioDatabase.simulate(samples, "sglang", "leak", 42);
    SampleScenarios.Scenario trtllm = ScenarioDatabase.simulate(samples, "trtllm", "leak", 43);
    append(textLog(vllm), VLLM_LINES);
    append(textLog(sglang), SGLANG_LINES);
    append(textLog(trtllm), TRTLLM_LINES);
    append(textLog(vllm), SECRET_LINES);
    appendBytes(textLog(vllm), secretBytes());
    List<String> outputs = new ArrayList<>();
    Path db = dir.resolve("leak.duckdb");

    List<String> serverFiles = new ArrayList<>();
    List<String> plainFiles = new ArrayList<>();
    for (SampleScenarios.Scenario scenario : List.of(vllm, sglang, trtllm)) {
      for (Path file : scenario.serverFiles()) {
        serverFiles.add(scenario.engine().id() + "-leak=" + file);
        plainFiles.add(file.toString());
      }
    }
    outputs.add(run(plainFiles, "parse", "--max-reject-ratio", "1"));
    outputs.add(run(serverFiles, "ingest", "--db", db.toString(), "--max-reject-ratio", "1"));
    outputs.add(
        run(
            List.of(vllm.clientFile().toString()),
            "clients",
            "--db",
            db.toString(),
            "--run-id",
            "leak"));
    outputs.add(
        run(
            List.of(csvWithErrors().toString(), llmperfWithErrors().toString()),
            "clients",
            "--db",
            db.toString(),
            "--run-id",
            "errors",
            "--max-reject-ratio",
            "1"));
    outputs.add(run(List.of(), "correlate", "--db", db.toString()));
    for (String format : List.of("md", "html", "json")) {
      outputs.add(run(List.of(), "report", "--db", db.toString(), "--format", format));
    }

    assertThat(outputs).allSatisfy(output -> assertThat(output).doesNotContain(MARKER));
    assertThat(outputs).allSatisfy(output -> assertThat(output).doesNotContainIgnoringCase(SECRET));
    try (Database database = Database.open(DatabaseSettings.from(db, null, 1))) {
      assertThat(cellsWithMarker(database, MARKER)).isEmpty();
      assertThat(cellsWithMarker(database, SECRET)).isEmpty();
      assertThat(count(database, "SELECT count(*) FROM rejects WHERE excerpt LIKE '%[redacted]%'"))
          .as("the secret lines were rejected and stored redacted")
          .isGreaterThanOrEqualTo(3);
      assertThat(
              count(
                  database,
                  "SELECT count(*) FROM server_config WHERE key = 'api_key' AND value ="
                      + " '[redacted]'"))
          .isPositive();
      assertThat(count(database, "SELECT count(*) FROM server_notice")).isPositive();
      assertThat(count(database, "SELECT count(*) FROM rejects")).isPositive();
      assertThat(
              count(
                  database, "SELECT count(*) FROM server_notice WHERE message LIKE '%<redacted %'"))
          .isPositive();
    }
  }

  static final List<String> VLLM_LINES =
      List.of(
          "INFO 03-02 09:00:00 [logger.py:39] Received request leak-r1: prompt: 'say "
              + MARKER
              + "', params: SamplingParams(n=1, max_tokens=5), prompt_token_ids: [1, 2],"
              + " lora_request: None.",
          "WARNING 03-02 09:00:01 [serving.py:10] input text 'first " + MARKER + " line",
          "second " + MARKER + " line",
          "third " + MARKER + "' is too long",
          "ERROR 03-02 09:00:02 [serving_chat.py:200] Error in preprocessing prompt inputs:"
              + " {'messages': [{'role': 'user', 'content': 'hi "
              + MARKER
              + "'}]}",
          "ERROR 03-02 09:00:03 [engine.py:20] request failed\r",
          "ERROR 03-02 09:00:03 [engine.py:20] Traceback (most recent call last):\r",
          "ERROR 03-02 09:00:03 [engine.py:20]   File \"engine.py\", line 20, in run\r",
          "ERROR 03-02 09:00:03 [engine.py:20] ValueError: bad request {'prompt': '"
              + MARKER
              + "'}",
          "WARNING 03-02 09:00:04 [serving.py:11] input text 'one " + MARKER + "\r",
          "WARNING 03-02 09:00:04 [serving.py:11] two " + MARKER + "' is too long",
          "a line nobody can read, with a prompt: '" + MARKER + "'");

  static final List<String> SGLANG_LINES =
      List.of(
          "[2026-03-02 09:00:00] Receive: obj=GenerateReqInput(rid='leak-a', text='"
              + MARKER
              + "', sampling_params={'max_new_tokens': 5})",
          "[2026-03-02 09:00:01] Scheduler hit an exception: Traceback (most recent call last):",
          "  File \"scheduler.py\", line 1, in run",
          "ValueError: bad request {'text': '" + MARKER + "'}",
          "[2026-03-02 09:00:02] input text 'first " + MARKER,
          "continued " + MARKER + "' is too long");

  static final List<String> TRTLLM_LINES =
      List.of(
          "[TensorRT-LLM][ERROR] Encountered an error: input text '" + MARKER,
          "more " + MARKER + "' rejected",
          "[TensorRT-LLM][WARNING] bad request {'prompt': '" + MARKER + "'}",
          "[03/02/2026-09:00:00] [TRT-LLM] [E] Error: {'messages': [{'role': 'user',"
              + " 'content': '"
              + MARKER
              + "'}]}");

  /**
   * Secrets the way servers and clients print them: a launch-arguments line, an error quoting a
   * header, an unreadable line with a flag and an AWS key ID, one with a NUL byte.
   */
  static final List<String> SECRET_LINES =
      List.of(
          "INFO 03-02 09:00:05 [api_server.py:1] non-default args: {'model': 'm', 'api_key':"
              + " '"
              + SECRET
              + "1Ab3'}",
          "ERROR 03-02 09:00:06 [serving.py:9] request failed: Authorization: Bearer "
              + SECRET
              + "2Zq7",
          "a line nobody can read: --api-key " + SECRET + "3x key AKIAKIWISECRET000001",
          "\0 HF_TOKEN=" + SECRET + "4 and more");

  /** A line that is not UTF-8 (a lone lead byte) with a header secret. */
  private static byte[] secretBytes() {
    byte[] text = ("x-api-key: " + SECRET + "5 ok\n").getBytes(UTF_8);
    byte[] line = new byte[text.length + 1];
    line[0] = (byte) 0xC3;
    System.arraycopy(text, 0, line, 1, text.length);
    return line;
  }

  /**
   * Every VARCHAR cell of every table that holds the marker (any case), as {@code table.column}.
   */
  private static List<String> cellsWithMarker(Database database, String marker) {
    List<String[]> columns =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery(
                            "SELECT table_name, column_name FROM information_schema.columns"
                                + " WHERE data_type = 'VARCHAR' AND table_schema = 'main'")
                        .map((row, context) -> new String[] {row.getString(1), row.getString(2)})
                        .list());
    assertThat(columns).hasSizeGreaterThan(20);
    List<String> found = new ArrayList<>();
    for (String[] column : columns) {
      long hits =
          count(
              database,
              "SELECT count(*) FROM \""
                  + column[0]
                  + "\" WHERE \""
                  + column[1]
                  + "\" ILIKE '%"
                  + marker
                  + "%'");
      if (hits > 0) {
        found.add(column[0] + "." + column[1]);
      }
    }
    return found;
  }

  private static long count(Database database, String sql) {
    return database.jdbi().withHandle(handle -> handle.createQuery(sql).mapTo(Long.class).one());
  }

  /** Runs the command in process; its stdout and stderr together. */
  private static String run(List<String> files, String... args) {
    List<String> command = new ArrayList<>(List.of(args));
    command.addAll(files);
    SqlRuns.Result result = SqlRuns.run(command.toArray(String[]::new));
    assertThat(result.code()).as(String.join(" ", command) + "\n" + result.err()).isIn(0, 3);
    return result.out() + result.err();
  }

  private static Path textLog(SampleScenarios.Scenario scenario) {
    return scenario.serverFiles().stream()
        .filter(file -> file.getFileName().toString().endsWith(".log"))
        .findFirst()
        .orElseThrow();
  }

  private static void appendBytes(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes, StandardOpenOption.APPEND);
  }

  private static void append(Path file, List<String> lines) throws IOException {
    Files.writeString(file, String.join("\n", lines) + "\n", UTF_8, StandardOpenOption.APPEND);
  }

  /** Our CSV with failed requests whose error text quotes the request. */
  private Path csvWithErrors() throws IOException {
    return ScenarioDatabase.write(
        dir.resolve("errors.csv"),
        "request_id,start_ts,ttft_ms,e2e_ms,output_tokens,status\n"
            + "e1,2026-03-02T09:00:01Z,10,20,5,ok\n"
            + "e2,2026-03-02T09:00:02Z,,,,\"error: 400 {'prompt': '"
            + MARKER
            + "'}\"\n"
            + "e3,2026-03-02T09:00:03Z,abc,20,5,\"input text '"
            + MARKER
            + "'\"\n"
            + "e4,2026-03-02T09:00:04Z,,,,\"error: 401 Authorization: Basic "
            + SECRET
            + "6Q==\"\n");
  }

  /** LLMPerf responses, one failed with the request in its message. */
  private Path llmperfWithErrors() throws IOException {
    return ScenarioDatabase.write(
        dir.resolve("x_individual_responses.json"),
        "[{\"error_code\": null, \"ttft_s\": 0.1, \"end_to_end_latency_s\": 0.5,"
            + " \"number_output_tokens\": 3, \"number_input_tokens\": 10},\n"
            + " {\"error_code\": 400, \"error_msg\": \"Error in preprocessing prompt inputs:"
            + " {'messages': [{'role': 'user', 'content': '"
            + MARKER
            + "'}]}\", \"number_input_tokens\": 10}]");
  }
}
