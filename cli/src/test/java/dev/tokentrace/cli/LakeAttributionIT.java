package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakeTableVersions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake's versioned {@code request_attribution} (docs/storage.md#versioned-tables), read by
 * another process while versions replace each other as fast as they can be written: the reader, a
 * JVM of its own ({@link LakeVersionReaderMain}), never sees half a version, two versions at once
 * or a missing file, while replaced versions are deleted after the grace period.
 */
final class LakeAttributionIT {
  @TempDir Path dir;

  @Test
  void aReaderInAnotherProcessSeesWholeVersionsOnly() throws Exception {
    Path lake = dir.resolve("lake");
    LakeMarker.of("tokentrace", "g1").createOrCheck(lake);
    Duration grace = Duration.ofSeconds(3);
    long versions = 0;
    try (Database source = Database.open(DatabaseSettings.inMemory());
        Connection connection = source.newConnection();
        ChildJvm reader =
            ChildJvm.startMain(
                dir, "reader", "256m", LakeVersionReaderMain.class, lake.toString(), "20")) {
      reader.await(line -> line.equals("reader: started"), ChildJvm.START_TIMEOUT, "its start");
      while (reader.alive()) {
        versions++;
        long rows = 1 + (versions * 37) % 500; // every version has a size of its own
        String query =
            "SELECT 'v"
                + versions
                + "-"
                + rows
                + "' AS run_id, 'c.csv' AS client_source_path, i AS client_source_line FROM"
                + " range("
                + rows
                + ") t(i)";
        LakeTableVersions.write(connection, lake, "request_attribution", query, grace);
      }
      int exit = reader.waitFor();
      String output = reader.output();
      assertThat(output).contains("bad=0").doesNotContain("BAD");
      assertThat(exit).as(output).isZero();
      String summary =
          output.lines().filter(line -> line.startsWith("reads=")).findFirst().orElseThrow();
      long distinct = Long.parseLong(summary.replaceAll(".* versions=(\\d+) .*", "$1"));
      System.err.println("LakeAttributionIT: " + versions + " versions written; reader " + summary);
      assertThat(distinct).as(summary).isGreaterThan(5);
    }
    assertThat(versions).isGreaterThan(20);
    try (Stream<Path> files =
        Files.list(lake.resolve(LakeTableVersions.DIRECTORY).resolve("request_attribution"))) {
      // replaced versions went after the grace period: what stays is about 3 s of writes
      assertThat(files.count()).isLessThan(versions);
    }
  }
}
