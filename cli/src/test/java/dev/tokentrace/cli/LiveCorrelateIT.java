package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code correlate --follow --lake} while the lake grows: client rows loaded after the server's are
 * attributed by the next round, server rows committed later by a later round, and the final
 * attribution equals the batch {@code correlate} of the same data row for row ({@code EXCEPT ALL}
 * both ways empty); {@code correlate --lake} and {@code report --lake} in batch give the same
 * (docs/live.md#live-attribution).
 */
final class LiveCorrelateIT {
  private static final Duration WAIT = Duration.ofSeconds(120);

  @TempDir Path dir;

  @Test
  void followingTheLakeConvergesToTheBatchResult() throws Exception {
    SampleScenarios.Scenario scenario =
        ScenarioDatabase.simulate(
            dir.resolve("samples"),
            "vllm",
            "live",
            51,
            "--format-version",
            "0.16",
            "--requests",
            "300",
            "--concurrency",
            "8");
    List<EngineEvent> events = ScenarioDatabase.parse(scenario);
    Path lake = dir.resolve("lake");
    Path follow = dir.resolve("follow.duckdb");
    StringWriter followErr = new StringWriter();
    try (LakeFixture writer = new LakeFixture(lake)) {
      writer.commit(events.subList(0, events.size() / 2));
      Thread follower =
          start(
              followErr,
              "correlate",
              "--follow",
              "--lake",
              lake.toString(),
              "--db",
              follow.toString(),
              "--interval",
              "200ms");
      try {
        await(followErr, "round 1"); // server rows only: nothing to attribute yet
        loadClientsBetweenRounds(follow, scenario); // client rows after the server's
        await(followErr, "round 2");
        writer.commit(events.subList(events.size() / 2, events.size() * 3 / 4)); // late rows
        await(followErr, "round 3");
        // one more interval: a round with nothing new attributes nothing
        Thread.sleep(600);
      } finally {
        follower.interrupt();
        follower.join(WAIT.toMillis());
      }
      assertThat(followErr.toString()).doesNotContain("round 4").contains("stopped after 3");
      // each round's attribution went to the lake too, for readers in other processes
      assertThat(followErr.toString())
          .contains("round 3: request_attribution written to the lake " + lake + " as version 3");
      assertLakeHasAttributionOf(lake, follow);

      // a round killed between its two writes: the file's attribution committed, the lake's
      // version not (a round that does not write the lake leaves that state, and the killed
      // write's half-written version file is put beside it); the restarted follower writes the
      // lake first, with the same rows (docs/live.md#the-attribution-in-the-lake)
      writer.commit(events.subList(events.size() * 3 / 4, events.size()));
      StringWriter killedErr = new StringWriter();
      Thread killed =
          start(
              killedErr,
              "correlate",
              "--follow",
              "--no-lake-attribution",
              "--lake",
              lake.toString(),
              "--db",
              follow.toString(),
              "--interval",
              "200ms");
      try {
        await(killedErr, "round 1 (");
      } finally {
        killed.interrupt();
        killed.join(WAIT.toMillis());
      }
      assertThat(killedErr.toString()).contains("request key(s) again");
      java.nio.file.Files.write(
          lake.resolve("_versions/request_attribution/00000000000000000004.0badc0ffee00.parquet"),
          new byte[] {'P', 'A', 'R', '1'});
      StringWriter restartedErr = new StringWriter();
      Thread restarted =
          start(
              restartedErr,
              "correlate",
              "--follow",
              "--lake",
              lake.toString(),
              "--db",
              follow.toString(),
              "--interval",
              "200ms");
      try {
        await(restartedErr, "as version 4");
      } finally {
        restarted.interrupt();
        restarted.join(WAIT.toMillis());
      }
      assertThat(restartedErr.toString()).doesNotContain("every request");
      assertLakeHasAttributionOf(lake, follow);
    }

    Path batch = dir.resolve("batch.duckdb");
    try (Database db = ScenarioDatabase.open(dir, "batch")) {
      ScenarioDatabase.load(db, scenario);
    }
    run("correlate", "--db", batch.toString());
    assertSameAttribution(follow, batch);

    Path batchLake = dir.resolve("batch-lake.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(batchLake))) {
      ScenarioDatabase.loadClients(db, scenario, scenario.clientFile());
    }
    String err = run("correlate", "--lake", lake.toString(), "--db", batchLake.toString());
    assertThat(err).contains("replaced by the lake").contains(events.size() + " rows");
    assertSameAttribution(batchLake, batch);
    assertThat(err).contains("as version 5");
    assertLakeHasAttributionOf(lake, batchLake);
    StringWriter report = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(report, true));
    command.setErr(new PrintWriter(new StringWriter(), true));
    assertThat(command.execute("report", "--lake", lake.toString(), "--db", batchLake.toString()))
        .isZero();
    assertThat(report.toString()).contains("## Latency attribution");
  }

  /** Loads the client file while the follower runs: it holds the file only during a round. */
  private static void loadClientsBetweenRounds(Path file, SampleScenarios.Scenario scenario)
      throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      try (Database db = Database.open(DatabaseSettings.file(file))) {
        ScenarioDatabase.loadClients(db, scenario, scenario.clientFile());
        return;
      } catch (IllegalStateException held) {
        assertThat(System.nanoTime()).as(held.getMessage()).isLessThan(deadline);
        Thread.sleep(50);
      }
    }
  }

  private static void assertSameAttribution(Path a, Path b) throws Exception {
    try (Database db = Database.open(DatabaseSettings.inMemory());
        Connection connection = db.newConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + a + "' AS a (READ_ONLY)");
      statement.execute("ATTACH '" + b + "' AS b (READ_ONLY)");
      assertThat(count(statement, "SELECT count(*) FROM a.request_attribution WHERE included"))
          .isPositive();
      assertThat(
              count(
                  statement,
                  "SELECT count(*) FROM (FROM a.request_attribution EXCEPT ALL"
                      + " FROM b.request_attribution)"))
          .as("%s rows not in %s", a, b)
          .isZero();
      assertThat(
              count(
                  statement,
                  "SELECT count(*) FROM (FROM b.request_attribution EXCEPT ALL"
                      + " FROM a.request_attribution)"))
          .as("%s rows not in %s", b, a)
          .isZero();
    }
  }

  /**
   * The lake's request_attribution, as a lake reader sees it, equals the file's table row for row
   * ({@code EXCEPT ALL} both ways empty; docs/live.md#the-attribution-in-the-lake).
   */
  private static void assertLakeHasAttributionOf(Path lake, Path file) throws Exception {
    try (Database reader = dev.tokentrace.store.lake.Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + file + "' AS f (READ_ONLY)");
      assertThat(count(statement, "SELECT count(*) FROM request_attribution"))
          .isEqualTo(count(statement, "SELECT count(*) FROM f.request_attribution"))
          .isPositive();
      assertThat(
              count(
                  statement,
                  "SELECT count(*) FROM (FROM request_attribution EXCEPT ALL"
                      + " FROM f.request_attribution)"))
          .as("lake rows not in %s", file)
          .isZero();
      assertThat(
              count(
                  statement,
                  "SELECT count(*) FROM (FROM f.request_attribution EXCEPT ALL"
                      + " FROM request_attribution)"))
          .as("%s rows not in the lake", file)
          .isZero();
    }
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static Thread start(StringWriter err, String... args) {
    CommandLine command = TokentraceMain.commandLine();
    command.setOut(new PrintWriter(new StringWriter(), true));
    command.setErr(new PrintWriter(err, true));
    Thread thread = new Thread(() -> command.execute(args), "correlate-follow");
    thread.start();
    return thread;
  }

  private static void await(StringWriter err, String text) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!err.toString().contains(text)) {
      assertThat(System.nanoTime()).as("waiting for '%s' in%n%s", text, err).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private static String run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    assertThat(command.execute(args)).as(String.join(" ", args) + ": " + err).isZero();
    return err.toString();
  }
}
