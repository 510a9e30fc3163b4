package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The client samples of {@code samples/clients/} (README there), each analyzed as the README's
 * "your files" recipe does: {@code analyze server.log otlp.jsonl --clients <file or folder>}. The
 * format is detected, and every client request is attributed. Each run starts a broker of its own
 * (about 20 s on a loaded 2-core machine), so the suite runs the README's headline case, AIPerf,
 * and {@code ClientSamplesTest} loads every sample with {@code clients}; {@code
 * -Dtokentrace.allClientSamples=true} analyzes all four.
 */
final class ClientSamplesIT {
  static final Path CLIENTS = GoldenSamplesTest.SAMPLES.resolve("clients");

  @TempDir Path out;

  /** tool, the client file or folder, the format detected, the requests in it. */
  static Stream<Arguments> all() {
    return Stream.of(
        Arguments.of("aiperf", "artifacts", "aiperf", 60),
        Arguments.of("guidellm", "output", "guidellm", 60),
        Arguments.of("wrk", "wrk.csv", "wrk", 116),
        Arguments.of("jmeter", "results.jtl", "jmeter", 80));
  }

  static Stream<Arguments> samples() {
    return Boolean.getBoolean("tokentrace.allClientSamples") ? all() : all().limit(1);
  }

  @ParameterizedTest
  @MethodSource("samples")
  void analyzeDetectsTheFormatAndAttributesEveryRequest(
      String tool, String clients, String format, int requests) {
    Path sample = CLIENTS.resolve(tool);
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setOut(new PrintWriter(stdout));
    commandLine.setErr(new PrintWriter(stderr));
    List<String> args =
        new ArrayList<>(
            List.of(
                "analyze",
                sample.resolve("server.log").toString(),
                sample.resolve("otlp.jsonl").toString(),
                "--year",
                "2026",
                "--clients",
                sample.resolve(clients).toString(),
                "--out",
                out.toString()));

    int code = commandLine.execute(args.toArray(String[]::new));

    assertThat(code).as(stderr.toString()).isZero();
    assertThat(stderr.toString()).contains(": " + format + " (detected), " + requests + " rows, 0");
    assertThat(stdout.toString())
        .contains(requests + " requests attributed")
        .contains("## Bottleneck");
    if (tool.equals("aiperf")) {
      // the README quotes this output: it must be what analyze prints now
      QuotedOutputs.assertQuoted("analyze-aiperf", stdout.toString(), "", "");
    }
  }
}
