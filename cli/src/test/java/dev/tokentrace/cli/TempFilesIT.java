package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue [2.2] item 5: a signalled stop leaves nothing in the temporary directory. The child JVM's
 * {@code java.io.tmpdir} is a directory of its own, so what it leaves can be listed exactly.
 */
final class TempFilesIT {
  @TempDir Path dir;

  @Test
  void sigtermOfAFollowingIngestLeavesTheTempDirectoryAsItFoundIt() throws Exception {
    Path temp = Files.createDirectories(dir.resolve("tmp"));
    Path log = dir.resolve("server.log");
    List<String> before = listing(temp);
    try (LogWriter writer = new LogWriter(log, "t", 1)) {
      writer.write(20);
      try (ChildJvm ingest =
          ChildJvm.start(
              dir,
              "ingest",
              "512m",
              List.of("-Djava.io.tmpdir=" + temp),
              "ingest",
              "--follow",
              "--db",
              dir.resolve("t.duckdb").toString(),
              "--engine",
              "vllm",
              "--year",
              "2026",
              "--commit-interval",
              "100ms",
              "--status-interval",
              "100ms",
              log.toString())) {
        ingest.await(
            line -> line.matches(".* [1-9][0-9]* records committed.*"),
            ChildJvm.START_TIMEOUT,
            "a commit");
        assertThat(listing(temp))
            .as("the native libraries are unpacked into the child's temp directory")
            .anyMatch(name -> name.startsWith("libduckdb_java"));
        assertThat(ingest.stop()).as(ingest.output()).isZero();
      }
    }
    assertThat(listing(temp)).isEqualTo(before);
  }

  private static List<String> listing(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(file -> file.getFileName().toString()).sorted().toList();
    }
  }
}
