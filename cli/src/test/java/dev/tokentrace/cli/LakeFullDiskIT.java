package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.store.lake.LakeCheck;
import dev.tokentrace.store.lake.LakeSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault "a full disk" (docs/storage.md#lake-faults-and-recovery): a lake on a small tmpfs (mounted
 * by the test; skipped where {@code mount} is not permitted), filled up but for a little room by a
 * ballast file, and a {@code sink --follow --lake} child JVM given a backlog larger than that room.
 * The sink must stop by itself with one clear line naming the path and "no space left"; what it
 * committed before must be whole (every manifest's files present with the rows it counts, {@code
 * compact --check} clean, no temporary file left); and once the ballast is deleted, a sink started
 * again must resume after the last manifest so that the lake holds every line exactly once.
 */
// run alone, after the others (pom.xml, failsafe execution serial-its): SIGTERM must end the
// resumed sink within the 4.5 s grace; it mounts a file system
@Tag("serial")
final class LakeFullDiskIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final int LINES = 10_000;

  /** What the ballast leaves free on the 8 MiB file system: room for a few flushes, not all. */
  private static final long ROOM_BYTES = 160 * 1024;

  @TempDir Path dir;

  @Test
  void aSinkOnAFullDiskStopsClearlyCommitsNothingHalfAndResumesExactlyOnceOnceFreed()
      throws Exception {
    Path mount = Files.createDirectories(dir.resolve("small-disk"));
    String refused = mountTmpfs(mount, "8m");
    assumeTrue(refused == null, refused);
    try (EmbeddedBroker broker = EmbeddedBroker.start()) {
      String bootstrap = broker.bootstrapServers();
      Path log = dir.resolve("server.log");
      List<String> ids;
      try (LogWriter writer = new LogWriter(log, "d", 1)) {
        writer.write(LINES);
        ids = writer.ids();
      }
      assertThat(
              run(
                  "ship",
                  "--follow",
                  "--once",
                  "--bootstrap-servers",
                  bootstrap,
                  "--topic-prefix",
                  "full",
                  "--partitions",
                  "2",
                  "--engine",
                  "vllm",
                  "--year",
                  "2026",
                  "--status-interval",
                  "0s",
                  log.toString()))
          .isZero();

      Path lake = mount.resolve("lake");
      Path ballast = fill(mount, ROOM_BYTES);
      try (ChildJvm sink = sink(bootstrap, lake, "sink-full")) {
        int code = sink.waitFor(TIMEOUT);
        String stderr = sink.stderr();
        assertThat(code).as(stderr).isEqualTo(ExitCodes.INFRASTRUCTURE);
        List<String> problems =
            stderr
                .lines()
                .filter(line -> line.toLowerCase(Locale.ROOT).contains("no space left"))
                .toList();
        assertThat(problems).as(stderr).hasSize(1);
        assertThat(problems.get(0))
            .as("one line naming the file that could not be written")
            .startsWith("sink: ")
            .doesNotContain("exception_type")
            .containsPattern(
                java.util.regex.Pattern.quote("no space left on device writing " + lake)
                    + "/\\S+\\.tmp");
        assertThat(stderr).as("one line, no stack trace").doesNotContain("\tat ");
        System.out.println("LakeFullDiskIT: the full sink said: " + problems.get(0));
      }
      // the room is used up: part of the backlog is committed, the rest not
      Map<String, Long> stored = FaultFixture.lakeIdCounts(lake);
      System.out.println("LakeFullDiskIT: " + stored.size() + " of " + LINES + " lines committed");
      assertThat(stored.size()).as("rows committed before the disk filled").isPositive();
      assertThat(stored.size()).as("rows committed before the disk filled").isLessThan(LINES);
      assertWhole(lake);

      Files.delete(ballast);
      try (ChildJvm again = sink(bootstrap, lake, "sink-again")) {
        again.awaitSinkStarted();
        FaultFixture.awaitInLake(lake, ids, TIMEOUT);
        assertThat(again.stop()).as(again.output()).isZero();
      }
      assertWhole(lake);
      FaultFixture.assertInLakeExactlyOnce(lake, ids);
    } finally {
      unmount(mount);
    }
  }

  /**
   * Nothing half-committed: {@code compact --check} is clean (every manifest's rows are in its
   * files), no temporary file is left, and every file a manifest names exists.
   */
  private void assertWhole(Path lake) throws Exception {
    StringWriter err = new StringWriter();
    assertThat(runTo(err, "compact", "--lake", lake.toString(), "--check"))
        .as(err.toString())
        .isZero();
    assertThat(LakeCheck.check(lake)).isEmpty();
    assertThat(LakeSnapshot.scan(lake).overlapping()).isEmpty();
    try (Stream<Path> temps = Files.list(lake.resolve("_tmp"))) {
      assertThat(temps.toList()).as("temporary files left").isEmpty();
    }
    try (Stream<Path> manifests = Files.list(lake.resolve("_manifests"))) {
      for (Path manifest : manifests.toList()) {
        String json = Files.readString(manifest);
        for (String file : json.split("\"")) {
          if (file.endsWith(".parquet")) {
            assertThat(lake.resolve(file)).as(manifest + " names " + file).isRegularFile();
          }
        }
      }
    }
  }

  private ChildJvm sink(String bootstrap, Path lake, String name) throws IOException {
    Path config = dir.resolve("group.properties");
    if (!Files.exists(config)) {
      // the first sink leaves the group when it fails; should it not, its partitions move soon
      Files.writeString(
          config, "consumer.session.timeout.ms=6000\nconsumer.heartbeat.interval.ms=1000\n");
    }
    return ChildJvm.start(
        dir,
        name,
        "256m",
        "sink",
        "--follow",
        "--bootstrap-servers",
        bootstrap,
        "--topic-prefix",
        "full",
        "--lake",
        lake.toString(),
        "--group",
        "full-sinks",
        "--flush-rows",
        "500",
        "--flush-interval",
        "200ms",
        "--kafka-config",
        config.toString(),
        "--status-interval",
        "0s",
        "--duckdb-memory-limit",
        "128MB",
        "--duckdb-threads",
        "1");
  }

  /** Writes a ballast file that leaves about {@code room} bytes free on the file system. */
  private static Path fill(Path mount, long room) throws IOException {
    Path ballast = mount.resolve("ballast");
    long free = Files.getFileStore(mount).getUsableSpace();
    long size = free - room;
    assertThat(size).as("free space on " + mount).isPositive();
    byte[] block = new byte[64 * 1024];
    try (OutputStream out = Files.newOutputStream(ballast)) {
      for (long left = size; left > 0; left -= block.length) {
        out.write(block, 0, (int) Math.min(block.length, left));
      }
    }
    return ballast;
  }

  /** Mounts a tmpfs of {@code size} on {@code mount}; null when done, else why not. */
  private static String mountTmpfs(Path mount, String size) throws Exception {
    Process process;
    try {
      process =
          new ProcessBuilder(
                  "mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", mount.toString())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      return "cannot run mount (util-linux): " + e.getMessage();
    }
    String output = new String(process.getInputStream().readAllBytes()).strip();
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      return "mount -t tmpfs is not permitted here (needs root or CAP_SYS_ADMIN): " + output;
    }
    return null;
  }

  private static void unmount(Path mount) throws Exception {
    Process process =
        new ProcessBuilder("umount", mount.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    if (process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0) {
      return;
    }
    // still busy (a child not yet gone): detach it, the kernel frees it when the last user ends
    new ProcessBuilder("umount", "-l", mount.toString())
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start()
        .waitFor(30, TimeUnit.SECONDS);
  }

  private static int run(String... args) {
    StringWriter err = new StringWriter();
    int code = runTo(err, args);
    assertThat(code).as(String.join(" ", args) + ": " + err).isZero();
    return code;
  }

  private static int runTo(StringWriter err, String... args) {
    picocli.CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setOut(new PrintWriter(new StringWriter(), true));
    commandLine.setErr(new PrintWriter(err, true));
    return commandLine.execute(args);
  }
}
