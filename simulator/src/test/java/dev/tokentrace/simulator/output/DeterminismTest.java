package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

final class DeterminismTest {
  @TempDir Path temp;

  @ParameterizedTest
  @EnumSource(EngineFormat.class)
  void sameSeedWritesByteIdenticalFiles(EngineFormat format) throws IOException {
    String[] options = {
      "--engine",
      format.engine().id(),
      "--format-version",
      format.version(),
      "--requests",
      "40",
      "--concurrency",
      "1,8",
      "--iteration-log",
      "true",
      "--timeout-s",
      "4",
      "--retries",
      "1",
      "--max-batch",
      "4"
    };
    RunSummary first = SimRuns.write(temp.resolve("a"), "retries", options);
    RunSummary second = SimRuns.write(temp.resolve("b"), "retries", options);

    assertThat(first.files()).hasSameSizeAs(second.files());
    for (int i = 0; i < first.files().size(); i++) {
      Path a = first.files().get(i);
      Path b = second.files().get(i);
      assertThat(temp.resolve("a").relativize(a)).isEqualTo(temp.resolve("b").relativize(b));
      assertThat(Files.mismatch(a, b)).as(a.toString()).isEqualTo(-1L);
    }
  }

  @ParameterizedTest
  @EnumSource(ClientFormat.class)
  void clientFilesAreByteIdenticalToo(ClientFormat format) throws IOException {
    String[] options = {
      "--client-format",
      format.id(),
      "--requests",
      "30",
      "--concurrency",
      "2,8",
      "--timeout-s",
      "3",
      "--max-batch",
      "4"
    };
    RunSummary first = SimRuns.write(temp.resolve("a"), null, options);
    RunSummary second = SimRuns.write(temp.resolve("b"), null, options);

    assertThat(first.files()).hasSameSizeAs(second.files());
    for (int i = 0; i < first.files().size(); i++) {
      assertThat(Files.mismatch(first.files().get(i), second.files().get(i))).isEqualTo(-1L);
    }
  }

  @ParameterizedTest
  @EnumSource(EngineFormat.class)
  void otherSeedWritesOtherFiles(EngineFormat format) {
    String[] base = {"--engine", format.engine().id(), "--format-version", format.version()};
    RunSummary first = SimRuns.write(temp.resolve("a"), "baseline", base);
    RunSummary second = SimRuns.write(temp.resolve("b"), "baseline", concat(base, "--seed", "43"));

    assertThat(first.bytes()).isNotEqualTo(second.bytes());
  }

  private static String[] concat(String[] base, String... more) {
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }
}
