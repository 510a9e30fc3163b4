package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

final class LoadgenCommandTest {
  @TempDir Path dir;

  private final StringWriter err = new StringWriter();

  private int execute(String... args) {
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    return command.execute(args);
  }

  @Test
  void aServerThatIsNotThereIsOneLineNamingTheUrl() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort(); // closed again: nothing listens there
    }
    String url = "http://127.0.0.1:" + port;

    int code =
        execute(
            "loadgen", "--url", url, "--requests", "3", "--out", dir.resolve("c.csv").toString());

    assertThat(code).isEqualTo(ExitCodes.INFRASTRUCTURE);
    assertThat(err.toString().strip())
        .isEqualTo("loadgen: cannot connect to " + url + ": connection refused");
  }

  @Test
  void reportsEveryBadOptionTogether() {
    int code =
        execute(
            "loadgen",
            "--concurrency",
            "0",
            "--max-tokens",
            "0",
            "--id-prefix",
            "a b",
            "--api",
            "embeddings",
            "--out",
            dir.resolve("c.csv").toString());

    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString())
        .contains("loadgen: --api 'embeddings' is not one of completions, chat")
        .contains("loadgen: --max-tokens must be >= 1: 0")
        .contains("loadgen: --concurrency must be >= 1: 0")
        .contains("loadgen: --id-prefix must match");
  }
}
