package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

final class TokentraceMainTest {
  @TempDir Path dir;

  private final StringWriter stdout = new StringWriter();
  private final StringWriter stderr = new StringWriter();

  private int run(String... args) {
    CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setOut(new PrintWriter(stdout));
    commandLine.setErr(new PrintWriter(stderr));
    return commandLine.execute(args);
  }

  static Stream<String> commands() {
    return TokentraceMain.commandLine().getSubcommands().keySet().stream()
        .filter(name -> !name.equals("help"));
  }

  @ParameterizedTest
  @MethodSource("commands")
  void everyCommandExplainsItselfWithoutFormattingWarnings(String command) {
    PrintStream original = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      assertThat(run(command, "--help")).isZero();
    } finally {
      System.setErr(original);
    }
    assertThat(stdout.toString()).contains("Usage: tokentrace " + command);
    assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
  }

  @ParameterizedTest
  @MethodSource("commands")
  void everyCommandAcceptsVerbose(String command) {
    try {
      assertThat(run(command, "--verbose", "--help")).as(stderr.toString()).isZero();
      assertThat(stdout.toString()).contains("--verbose");
    } finally {
      System.clearProperty("tokentrace.debug");
      System.clearProperty("org.slf4j.simpleLogger.log.org.apache.kafka");
    }
  }

  @Test
  void aFailureIsOneLineAndItsStackTraceComesWithVerbose() throws Exception {
    Path db = Files.writeString(dir.resolve("not-a-database.duckdb"), "not a duckdb file\n");
    assertThat(run("sql", "--db", db.toString(), "-e", "SELECT 1"))
        .isEqualTo(ExitCodes.INFRASTRUCTURE);
    assertThat(stderr.toString()).doesNotContain("\tat ").contains("--verbose");
    stderr.getBuffer().setLength(0);
    try {
      assertThat(run("sql", "--verbose", "--db", db.toString(), "-e", "SELECT 1"))
          .isEqualTo(ExitCodes.INFRASTRUCTURE);
      assertThat(stderr.toString()).contains("\tat ");
    } finally {
      System.clearProperty("tokentrace.debug");
      System.clearProperty("org.slf4j.simpleLogger.log.org.apache.kafka");
    }
  }

  @Test
  void unknownCommandIsAUsageError() {
    assertThat(run("bogus")).isEqualTo(ExitCodes.USAGE);
  }

  @Test
  void aMistypedCommandIsOneLineWithTheNearestName() {
    assertThat(run("anlyze")).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString().lines().toList())
        .singleElement()
        .asString()
        .startsWith("tokentrace: ")
        .contains("'anlyze'")
        .contains("did you mean analyze")
        .endsWith("(see 'tokentrace --help')");
    assertThat(stdout.toString()).isEmpty();
  }

  @ParameterizedTest
  @MethodSource("commands")
  void aMistypedOptionIsOneLineWithTheNearestNameForEveryCommand(String command) {
    assertThat(run(command, "--verbos")).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString().lines().toList())
        .singleElement()
        .asString()
        .startsWith("tokentrace " + command + ": ")
        .contains("'--verbos'")
        .contains("did you mean --verbose")
        .doesNotContain("Usage:");
    assertThat(stdout.toString()).isEmpty();
  }

  @Test
  void missingFilesAreAllReportedAtOnceWithExitTwo() {
    assertThat(run("parse", "nope-1.log", "nope-2.log")).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString())
        .contains("nope-1.log: no such file")
        .contains("nope-2.log: no such file");
  }

  @Test
  void aDirectoryIsNotAFile() {
    assertThat(run("parse", dir.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString()).contains(": is a directory, not a file");
  }

  @Test
  void unknownFormatSaysWhatWasTried() throws Exception {
    Path junk = dir.resolve("junk.log");
    Files.writeString(junk, "hello\nworld\n");
    assertThat(run("parse", junk.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString())
        .contains("junk.log: no known engine format in its first lines (tried vllm: 0 events");
  }

  @Test
  void aProxyAccessLogWithoutAnEngineAsksForTheServersEngine() {
    Path log = GoldenSamplesTest.SAMPLES.resolve("pd/proxy/decode-saturated/proxy/access.jsonl");
    assertThat(run("parse", log.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString())
        .contains("access.jsonl: a P/D proxy's access log: give --engine, the engine of the");
  }

  @Test
  void batchOnlyPdOptionsAreRefusedWithServe() {
    assertThat(
            run(
                "simulate",
                "--serve",
                "0",
                "--pd",
                "decode-saturated",
                "--engine",
                "sglang",
                "--no-rid",
                "--out",
                dir.resolve("served").toString()))
        .isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString()).contains("shape the batch files of --pd, not --serve");
  }

  @Test
  void aWrongEngineIsAnErrorNamingTheDetectedOne() {
    Path sglang = GoldenSamplesTest.SAMPLES.resolve("sglang/v0.5.6-decode-bound/server.log");
    assertThat(run("parse", "--engine", "vllm", sglang.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString()).contains("looks like sglang, not vllm");
  }

  @Test
  void parseExitsThreeWhenRejectsExceedTheTolerance() throws Exception {
    Path log = dir.resolve("server.log");
    Files.writeString(
        log,
        "INFO 03-02 10:00:10 [loggers.py:123] Engine 000: Avg prompt throughput: 1.0 tokens/s, Avg"
            + " generation throughput: 2.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV"
            + " cache usage: 1.0%, Prefix cache hit rate: 0.0%\n"
            + "\u0000\u0001 binary junk\n");
    assertThat(run("parse", "--engine", "vllm", log.toString())).isEqualTo(ExitCodes.REJECTS);
    assertThat(stderr.toString())
        .contains("server.log:2: vllm: binary data")
        .contains("lines=2 parsed=1 ignored=0 rejected=1 (50.00%)");
  }

  @Test
  void shipWithoutABrokerIsAUsageError() {
    Path log = GoldenSamplesTest.SAMPLES.resolve("sglang/v0.5.6-decode-bound/server.log");
    assertThat(run("ship", log.toString())).isEqualTo(ExitCodes.USAGE);
    assertThat(stderr.toString()).contains("ship needs a running broker");
  }
}
