package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EventTables;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeCompactor;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.store.lake.LakeWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@code scripts/check-python-clients.sh} on a lake (Python duckdb, pyarrow, pandas through
 * the views {@code sql --lake --views} prints, with compaction inputs still in the folder) and on a
 * DuckDB file (Python duckdb). Skips when python3 or one of the modules is missing.
 */
final class PythonClientsIT {
  static final Path SCRIPT =
      Path.of("").toAbsolutePath().getParent().resolve("scripts/check-python-clients.sh");
  static final Path EVENTS =
      Path.of("..", "samples", "vllm", "v0.16-retries", "expected", "events.jsonl");

  @TempDir Path dir;

  @Test
  void theLakeAndTheDuckDbFileOpenInPythonDuckDbPyarrowAndPandas() throws Exception {
    assumeTrue(
        run(List.of("python3", "-c", "import duckdb, pyarrow, pandas")).exit == 0,
        "python3 with duckdb, pyarrow and pandas is needed (Debian: python3; then pip install"
            + " duckdb==1.5.6 pyarrow pandas)");
    Path lake = dir.resolve("lake");
    Map<String, Long> rows = writeLake(lake);
    Path views = dir.resolve("views.sql");
    Files.writeString(views, Lake.viewsSql(LakeSnapshot.scan(lake)), StandardCharsets.UTF_8);
    Path db = dir.resolve("batch.duckdb");
    try (Database database = Database.open(DatabaseSettings.file(db));
        Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      statement.execute(
          "INSERT INTO rejects VALUES ('a.log', 1, 0, 'vllm', 'unknown line', 'x',"
              + " TIMESTAMP '2026-12-01 12:00:00')");
    }

    List<String> command =
        new ArrayList<>(
            List.of(
                SCRIPT.toString(),
                "--lake",
                lake.toString(),
                "--views",
                views.toString(),
                "--db",
                db.toString()));
    rows.forEach((table, count) -> command.addAll(List.of("--expect", table + "=" + count)));
    Result result = run(command);

    assertThat(result.exit).as(result.output).isZero();
    assertThat(result.output)
        .contains("python duckdb 1.")
        .contains("request_timing: duckdb " + rows.get("request_timing"))
        .contains("opened it")
        .contains("rejects: 1")
        .doesNotContain("MISMATCH");
  }

  /** The sample's events in ten flushes over two partitions, then one compaction (inputs kept). */
  private static Map<String, Long> writeLake(Path lake) throws Exception {
    List<EngineEvent> events = new ArrayList<>();
    for (String line : Files.readAllLines(EVENTS, StandardCharsets.UTF_8)) {
      if (!line.isBlank()) {
        events.add(EventJson.read(line));
      }
    }
    Map<String, Long> rows = new TreeMap<>();
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    List<LakePartition> partitions =
        List.of(
            new LakePartition("tokentrace.events", 0), new LakePartition("tokentrace.events", 1));
    try (LakeWriter writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "py"), "256MB", 1, clock)) {
      for (LakePartition partition : partitions) {
        writer.recover(partition, "id");
        writer.startAt(partition, 0);
      }
      long[] offsets = new long[partitions.size()];
      for (int i = 0; i < events.size(); i++) {
        int p = i % partitions.size();
        writer.append(partitions.get(p), EventTables.of(events.get(i)), events.get(i));
        writer.advance(partitions.get(p), ++offsets[p]);
        rows.merge(EventTables.of(events.get(i)).name(), 1L, Long::sum);
        if (i % (events.size() / 10) == 0) {
          writer.flush();
        }
      }
      writer.flush();
    }
    LakeCompactor.compact(
        lake,
        new LakeCompactor.Settings(
            2, LakeCompactor.Settings.DEFAULT_TARGET_BYTES, Duration.ofHours(1)),
        partition -> true,
        Instant.parse("2026-12-01T12:00:00Z"));
    assertThat(LakeSnapshot.scan(lake).superseded()).isNotEmpty();
    return rows;
  }

  private record Result(int exit, String output) {}

  private Result run(List<String> command) throws Exception {
    Path output = Files.createTempFile(dir, "python", ".txt");
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
    } catch (java.io.IOException e) {
      return new Result(127, e.toString());
    }
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
    return new Result(process.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
  }
}
