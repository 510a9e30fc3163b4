package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue [2.2] item 5: neither a signalled stop nor {@code kill -9} leaves anything in the temporary
 * directory; the native libraries are extracted once into the versioned cache directory ({@link
 * NativeLibraries}). The child JVM's {@code java.io.tmpdir} and cache are directories of their own,
 * so what it leaves can be listed exactly.
 */
// run alone, after the others (pom.xml, failsafe execution serial-its): SIGTERM must end ingest
// --follow within the 4.5 s grace (exit 0)
@Tag("serial")
final class TempFilesIT {
  @TempDir Path dir;

  @Test
  void sigtermOfAFollowingIngestLeavesTheTempDirectoryAsItFoundIt() throws Exception {
    followAndEnd(false);
  }

  @Test
  void killMinus9OfAFollowingIngestLeavesTheTempDirectoryAsItFoundIt() throws Exception {
    followAndEnd(true);
    // a second process reuses the cached libraries: nothing extracted again
    List<String> cached = tree(dir.resolve("cache"));
    followAndEnd(true);
    assertThat(tree(dir.resolve("cache"))).isEqualTo(cached);
  }

  private void followAndEnd(boolean kill) throws Exception {
    Path temp = Files.createDirectories(dir.resolve("tmp"));
    Path cache = dir.resolve("cache");
    Path log = dir.resolve("server.log");
    List<String> before = listing(temp);
    try (LogWriter writer = new LogWriter(log, "t", 1)) {
      writer.write(20);
      try (ChildJvm ingest =
          ChildJvm.start(
              dir,
              "ingest",
              "512m",
              List.of(
                  "-Djava.io.tmpdir=" + temp,
                  "-D" + NativeLibraries.DIRECTORY_PROPERTY + "=" + cache),
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
        assertThat(tree(cache))
            .as("lz4 is loaded from the cache directory")
            .anyMatch(name -> name.matches("[^/]+/liblz4-java-[0-9a-f]{16}\\.so"));
        assertThat(listing(temp)).as("while it runs").isEqualTo(before);
        if (kill) {
          ingest.kill();
        } else {
          assertThat(ingest.stop()).as(ingest.output()).isZero();
        }
      }
    }
    assertThat(listing(temp)).isEqualTo(before);
  }

  /** Every file below {@code directory}, as paths relative to it (the version directory first). */
  private static List<String> tree(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(Files::isRegularFile)
          .map(file -> directory.relativize(file).toString())
          .sorted()
          .toList();
    }
  }

  private static List<String> listing(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(file -> file.getFileName().toString()).sorted().toList();
    }
  }
}
