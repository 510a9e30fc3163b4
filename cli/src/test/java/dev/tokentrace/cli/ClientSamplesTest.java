package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Every client sample of {@code samples/clients/} loads with {@code clients} as the README says:
 * the format is detected and named, every row is read, none rejected ({@code ClientSamplesIT}
 * analyzes them end to end).
 */
final class ClientSamplesTest {
  @TempDir Path dir;

  static Stream<Arguments> samples() {
    return ClientSamplesIT.all();
  }

  @ParameterizedTest
  @MethodSource("samples")
  void clientsDetectsAndLoadsEverySample(String tool, String clients, String format, int rows) {
    StringWriter stderr = new StringWriter();
    CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setOut(new PrintWriter(new StringWriter()));
    commandLine.setErr(new PrintWriter(stderr));

    int code =
        commandLine.execute(
            "clients",
            "--db",
            dir.resolve("clients.duckdb").toString(),
            ClientSamplesIT.CLIENTS.resolve(tool).resolve(clients).toString());

    assertThat(code).as(stderr.toString()).isZero();
    assertThat(stderr.toString())
        .contains(": " + format + " (detected), " + rows + " rows, 0 rejected")
        .contains("rows=" + rows + " rejected=0 ");
  }
}
