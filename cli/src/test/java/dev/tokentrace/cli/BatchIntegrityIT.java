package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue [2.2] items 1, 6 and 9 for batch {@code ingest}: running it again loads nothing twice, a
 * run killed with {@code kill -9} half-way is made whole by the next one (exactly once, compared as
 * sets), {@code --replace} reloads on purpose; one bad file (empty, truncated gzip small or large)
 * does not decide for the others; a file without newlines is read in bounded memory.
 */
// run alone, after the others (pom.xml, failsafe execution serial-its): a killed ingest must have
// committed 4 MB within 90 s, and a 32 MB heap must hold a 48 MiB line-less file
@Tag("serial")
final class BatchIntegrityIT {
  @TempDir Path dir;

  @Test
  void aSecondRunSkipsWhatIsLoadedAndReplaceLoadsItAgainOnce() throws Exception {
    Path log = writeLog(dir.resolve("server.log"), "a", 200);
    Path db = dir.resolve("t.duckdb");

    Run first = ingest(db, log.toString());
    assertThat(first.code()).as(first.err()).isZero();
    Run second = ingest(db, log.toString());
    assertThat(second.code()).as(second.err()).isZero();
    assertThat(second.err()).contains("already loaded").contains("skipped");
    assertThat(idCounts(db)).hasSize(200).allSatisfy((id, n) -> assertThat(n).isOne());

    Run replaced = ingest(db, "--replace", log.toString());
    assertThat(replaced.code()).as(replaced.err()).isZero();
    assertThat(replaced.err()).contains("--replace: loaded again").contains("rows removed");
    assertThat(idCounts(db)).hasSize(200).allSatisfy((id, n) -> assertThat(n).isOne());

    // the file grew: its rows are replaced by the whole file's, none twice
    try (OutputStream out = Files.newOutputStream(log, java.nio.file.StandardOpenOption.APPEND)) {
      for (int i = 200; i < 250; i++) {
        out.write(LogWriter.line("a", i).getBytes(UTF_8));
      }
    }
    Run grown = ingest(db, log.toString());
    assertThat(grown.code()).as(grown.err()).isZero();
    assertThat(grown.err()).contains("changed since it was loaded");
    assertThat(idCounts(db)).hasSize(250).allSatisfy((id, n) -> assertThat(n).isOne());
  }

  @Test
  void killMinus9HalfWayAndTheNaturalRetryStoreEveryLineExactlyOnce() throws Exception {
    int lines = 400_000;
    Path log = writeLog(dir.resolve("big.log"), "k", lines);
    Path small = writeLog(dir.resolve("small.log"), "s", 100);
    Path db = dir.resolve("k.duckdb");
    Path wal = dir.resolve("k.duckdb.wal");
    try (ChildJvm ingest =
        ChildJvm.start(
            dir,
            "ingest-killed",
            "512m",
            "ingest",
            "--via-broker",
            "--db",
            db.toString(),
            "--engine",
            "vllm",
            "--year",
            "2026",
            small.toString(),
            log.toString())) {
      long deadline = System.nanoTime() + ChildJvm.START_TIMEOUT.toNanos();
      while (!(Files.exists(wal) && Files.size(wal) > 4_000_000)) {
        assertThat(ingest.alive()).as(ingest.output()).isTrue();
        assertThat(System.nanoTime()).as("rows committed in time").isLessThan(deadline);
        Thread.sleep(20);
      }
      ingest.kill();
    }
    long stored = idCounts(db).size();
    assertThat(stored).as("the killed run committed part of the file").isBetween(1L, lines - 1L);

    Run retry = ingest(db, "--via-broker", small.toString(), log.toString());
    assertThat(retry.code()).as(retry.err()).isZero();
    assertThat(retry.err())
        .contains("did not finish: resumed after what it stored")
        .containsPattern(
            java.util.regex.Pattern.quote(log.toString()) + ": resumed from line \\d+: [1-9]");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < lines; i++) {
      expected.add(LogWriter.id("k", i));
    }
    for (int i = 0; i < 100; i++) {
      expected.add(LogWriter.id("s", i));
    }
    Map<String, Long> counts = idCounts(db);
    // as sets (HashSet equality: AssertJ's any-order comparison is quadratic)
    assertThat(new HashSet<>(counts.keySet()).equals(new HashSet<>(expected)))
        .as("stored ids equal written ids: %d stored, %d written", counts.size(), expected.size())
        .isTrue();
    assertThat(counts.values().stream().filter(n -> n != 1).count())
        .as("ids stored twice")
        .isZero();
  }

  @Test
  void aFileLoadedInPartResumesFromTheFirstLineNotStoredAndStoresTheRestOnce() throws Exception {
    Path log = writeLog(dir.resolve("part.log"), "p", 300);
    Path db = dir.resolve("p.duckdb");
    assertThat(ingest(db, log.toString()).code()).isZero();
    // what a run killed after committing lines 1-120 leaves: a prefix of the file, still 'loading'
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement()) {
      for (String table : List.of("request_arrived", "request_finished", "engine_stats")) {
        statement.execute("DELETE FROM " + table + " WHERE source_line > 120");
      }
      statement.execute("UPDATE ingest_files SET state = 'loading'");
    }
    assertThat(idCounts(db)).hasSize(120);

    Run resumed = ingest(db, "--via-broker", log.toString());

    assertThat(resumed.code()).as(resumed.err()).isZero();
    assertThat(resumed.err())
        .contains("did not finish: resumed after what it stored")
        .contains(log + ": resumed from line 121: 120 events and 0 rejects");
    assertThat(idCounts(db)).hasSize(300).allSatisfy((id, n) -> assertThat(n).isOne());
    Run again = ingest(db, log.toString());
    assertThat(again.err()).contains("already loaded");
  }

  @Test
  void inProcessAFileLoadedInPartIsLoadedAgainWholeInOneTransaction() throws Exception {
    Path log = writeLog(dir.resolve("part.log"), "p", 300);
    Path db = dir.resolve("p.duckdb");
    assertThat(ingest(db, log.toString()).err()).contains("ingest: in-process (no broker): 1 file");
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement()) {
      for (String table : List.of("request_arrived", "request_finished", "engine_stats")) {
        statement.execute("DELETE FROM " + table + " WHERE source_line > 120");
      }
      statement.execute("UPDATE ingest_files SET state = 'loading'");
    }

    Run reloaded = ingest(db, log.toString());

    assertThat(reloaded.code()).as(reloaded.err()).isZero();
    assertThat(reloaded.err())
        .contains("in-process a file is not resumed")
        .containsPattern(
            java.util.regex.Pattern.quote(log.toString()) + ": [1-9]\\d* stored rows removed");
    assertThat(idCounts(db)).hasSize(300).allSatisfy((id, n) -> assertThat(n).isOne());
    assertThat(ingest(db, log.toString()).err()).contains("already loaded");
  }

  @Test
  void oneBadFileDoesNotDecideForTheOthers() throws Exception {
    Path good = writeLog(dir.resolve("good.log"), "g", 300);
    Path empty = Files.createFile(dir.resolve("empty.log"));
    Path smallGz = truncatedGzip(dir.resolve("small.log.gz"), "m", 5, 0.5);
    Path largeGz = truncatedGzip(dir.resolve("large.log.gz"), "l", 50_000, 0.5);
    Path db = dir.resolve("bad.duckdb");

    Run run = ingest(db, good.toString(), empty.toString(), smallGz.toString(), largeGz.toString());

    assertThat(run.code()).as(run.err()).isEqualTo(ExitCodes.PARTIAL);
    assertThat(run.err())
        .contains(empty + ":1: empty file")
        .containsPattern(java.util.regex.Pattern.quote(largeGz.toString()) + ":\\d+: corrupt gzip")
        .contains("the other files were loaded");
    assertThat(run.err()).containsPattern(java.util.regex.Pattern.quote(smallGz.toString()) + ":");
    Map<String, Long> counts = idCounts(db);
    for (int i = 0; i < 300; i++) {
      assertThat(counts).containsEntry(LogWriter.id("g", i), 1L);
    }
    assertThat(counts.keySet().stream().filter(id -> id.startsWith("l-")).count())
        .as("the large gzip's lines before the cut are loaded")
        .isPositive();
  }

  @Test
  void aFileWithoutNewlinesIsReadInBoundedMemory() throws Exception {
    Path nul = dir.resolve("crashed.log");
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(nul)) {
      for (int i = 0; i < 48; i++) {
        out.write(block); // 48 MiB of NUL bytes, no newline: 96 MB of chars as one String
      }
    }
    try (ChildJvm parse =
        ChildJvm.start(
            dir,
            "parse-nul",
            "32m",
            "parse",
            "--max-line-bytes",
            "65536",
            "--engine",
            "vllm",
            "--year",
            "2026",
            nul.toString())) {
      int code = parse.waitFor();
      assertThat(parse.stderr()).doesNotContain("OutOfMemoryError").contains(nul + ":1:");
      assertThat(code).as(parse.output()).isEqualTo(ExitCodes.REJECTS);
    }
  }

  private record Run(int code, String err) {}

  private static Run ingest(Path db, String... files) {
    List<String> args = new ArrayList<>(List.of("ingest", "--db", db.toString()));
    args.addAll(List.of("--engine", "vllm", "--year", "2026"));
    args.addAll(Arrays.asList(files));
    CommandLine commandLine = TokentraceMain.commandLine();
    StringWriter err = new StringWriter();
    commandLine.setErr(new PrintWriter(err, true));
    int code = commandLine.execute(args.toArray(String[]::new));
    return new Run(code, err.toString());
  }

  private static Path writeLog(Path file, String prefix, int lines) throws IOException {
    try (OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file))) {
      for (int i = 0; i < lines; i++) {
        out.write(LogWriter.line(prefix, i).getBytes(UTF_8));
      }
    }
    return file;
  }

  /** A gzip file of {@code lines} lines cut off after {@code fraction} of its bytes. */
  private static Path truncatedGzip(Path file, String prefix, int lines, double fraction)
      throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (OutputStream out = new GZIPOutputStream(bytes)) {
      for (int i = 0; i < lines; i++) {
        out.write(LogWriter.line(prefix, i).getBytes(UTF_8));
      }
    }
    byte[] whole = bytes.toByteArray();
    Files.write(file, Arrays.copyOf(whole, (int) (whole.length * fraction)));
    return file;
  }

  private static Map<String, Long> idCounts(Path db) throws Exception {
    return FaultFixture.dbIdCounts(db);
  }
}
