package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest --follow}: shipper, embedded broker and sink in one process, stopped with SIGTERM
 * after everything written was committed, then run again ({@code --once}) on the same DuckDB file:
 * the embedded broker kept its data (and the checkpoint) next to it, so the second run ships only
 * the new lines and the sink writes each once.
 */
// run alone, after the others (pom.xml, failsafe execution serial-its): SIGTERM must end ingest
// --follow within the 4.5 s grace (exit 0)
@Tag("serial")
final class IngestFollowIT {
  private static final Pattern COMMITTED = Pattern.compile("(\\d+) records committed");

  @TempDir Path dir;

  @Test
  void ingestFollowStopsCleanlyOnSigtermAndResumesExactlyWhereItStopped() throws Exception {
    Path log = dir.resolve("server.log");
    Path db = dir.resolve("live.duckdb");
    List<String> ids;
    try (LogWriter writer = new LogWriter(log, "f", 300).start();
        ChildJvm ingest =
            ChildJvm.start(
                dir,
                "ingest",
                "512m",
                "ingest",
                "--follow",
                "--db",
                db.toString(),
                "--engine",
                "vllm",
                "--year",
                "2026",
                "--status-interval",
                "100ms",
                "--commit-interval",
                "100ms",
                log.toString())) {
      ingest.await(line -> committedAtLeast(line, 1), ChildJvm.START_TIMEOUT, "a commit");
      ids = writer.finish();
      ingest.await(
          line -> committedAtLeast(line, ids.size()), ChildJvm.START_TIMEOUT, "all committed");
      assertThat(ingest.stop()).as(ingest.output()).isZero();
      assertThat(ingest.stderr())
          .contains("ingest: stop requested (SIGTERM or Ctrl-C): finishing and committing")
          .contains("ingest: sink events=" + ids.size() + " rejects=0");
    }
    assertThat(idCounts(db))
        .hasSize(ids.size())
        .allSatisfy((id, count) -> assertThat(count).isOne());

    List<String> all = new ArrayList<>(ids);
    try (LogWriter more = new LogWriter(log, "g", 1)) {
      more.write(100);
      all.addAll(more.ids());
    }
    try (ChildJvm again =
        ChildJvm.start(
            dir,
            "ingest-once",
            "512m",
            "ingest",
            "--once",
            "--db",
            db.toString(),
            "--engine",
            "vllm",
            "--year",
            "2026",
            "--status-interval",
            "0s",
            log.toString())) {
      assertThat(again.waitFor()).as(again.output()).isZero();
      assertThat(again.stderr()).contains("resuming at line " + (ids.size() + 1));
    }
    Map<String, Long> counts = idCounts(db);
    assertThat(counts.keySet()).containsExactlyInAnyOrderElementsOf(all);
    assertThat(counts.values()).allSatisfy(count -> assertThat(count).isOne());
  }

  /**
   * Issue [2.2] item 3, under load: each {@code ingest --follow --once} ships thousands of lines in
   * many transactions and must not end before its last one is in DuckDB; after every run the
   * database holds exactly the lines written so far.
   */
  @Test
  void ingestOnceEndsOnlyWhenItsLastTransactionIsInDuckDbUnderLoad() throws Exception {
    Path log = dir.resolve("load.log");
    Path db = dir.resolve("load.duckdb");
    List<String> all = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      try (LogWriter writer = new LogWriter(log, "d" + round, 1)) {
        writer.write(20_000);
        all.addAll(writer.ids());
      }
      java.io.StringWriter err = new java.io.StringWriter();
      picocli.CommandLine commandLine = TokentraceMain.commandLine();
      commandLine.setErr(new java.io.PrintWriter(err, true));
      int code =
          commandLine.execute(
              "ingest",
              "--follow",
              "--once",
              "--db",
              db.toString(),
              "--engine",
              "vllm",
              "--year",
              "2026",
              "--commit-interval",
              "20ms",
              "--status-interval",
              "0s",
              log.toString());
      assertThat(code).as(err.toString()).isZero();
      Map<String, Long> counts = idCounts(db);
      assertThat(new java.util.HashSet<>(counts.keySet()).equals(new java.util.HashSet<>(all)))
          .as("round %d: %d stored, %d written", round, counts.size(), all.size())
          .isTrue();
      assertThat(counts.values()).allSatisfy(count -> assertThat(count).isOne());
    }
  }

  private static boolean committedAtLeast(String line, long records) {
    Matcher matcher = COMMITTED.matcher(line);
    return matcher.find() && Long.parseLong(matcher.group(1)) >= records;
  }

  private static Map<String, Long> idCounts(Path db) throws Exception {
    return FaultFixture.dbIdCounts(db);
  }
}
