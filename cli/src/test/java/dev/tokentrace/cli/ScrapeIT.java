package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code scrape} against the simulator's live {@code /metrics} for each engine's real metric names:
 * a baseline scrape, load, two more scrapes, loaded through the embedded broker into DuckDB. The
 * histograms' interval deltas count every request the load sent, and vLLM and SGLang gauges give
 * one {@code engine_stats} per scrape (docs/formats/metrics.md).
 */
final class ScrapeIT {
  private static final int REQUESTS = 12;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(strings = {"vllm", "sglang", "trtllm"})
  void scrapesEveryEnginesMetricsIntoEngineStatsAndHistogramDeltas(String engine) throws Exception {
    Path served = dir.resolve("server");
    Files.createDirectories(served);
    LiveSimulator server = LiveSimulator.start(served, "--engine", engine);
    Path scrapes = dir.resolve("metrics.prom");
    Path db = dir.resolve("scrape.duckdb");
    try {
      int port = server.port();
      String path = engine.equals("trtllm") ? "/prometheus/metrics" : "/metrics";
      String url = "http://127.0.0.1:" + port + path;
      // one scrape: --interval is only its timeout, generous for a cold server on a loaded machine
      run("scrape", "--url", url, "--count", "1", "--interval", "10s", "--out", scrapes.toString());
      run(
          "loadgen",
          "--url",
          "http://127.0.0.1:" + port,
          "--api",
          "completions",
          "--engine",
          engine,
          "--concurrency",
          "4",
          "--requests",
          Integer.toString(REQUESTS),
          "--prompt-tokens",
          "50",
          "--max-tokens",
          "8",
          "--id-prefix",
          "scrape-",
          "--out",
          dir.resolve("client.csv").toString());
      run(
          "scrape",
          "--url",
          url,
          "--count",
          "2",
          "--interval",
          // also each request's timeout: 100 ms timed out on a loaded machine
          "1s",
          "--out",
          scrapes.toString(),
          "--instance",
          engine + "-0",
          "--db",
          db.toString());
    } finally {
      server.stop();
    }

    assertThat(
            query(
                db,
                "SELECT count(DISTINCT engine) || ' ' || min(engine) || ' ' || sum(count)"
                    + " FROM server_histogram WHERE component = 'e2e'"))
        .isEqualTo("1 " + engine + " " + REQUESTS);
    assertThat(query(db, "SELECT count(DISTINCT ts) FROM server_histogram")).isEqualTo("2");
    assertThat(
            query(
                db,
                "SELECT count(*) FROM server_histogram WHERE component = 'ttft' AND count > 0"
                    + " AND p50_ms > 0 AND p50_ms <= p99_ms"))
        .isEqualTo("1");
    String stats = engine.equals("trtllm") ? "0" : "3";
    assertThat(query(db, "SELECT count(*) FROM engine_stats WHERE running IS NOT NULL"))
        .isEqualTo(stats);
    assertThat(query(db, "SELECT count(*) FROM rejects")).isEqualTo("0");
  }

  private static void run(String... args) {
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    assertThat(command.execute(args)).as(String.join(" ", args) + ": " + err).isZero();
  }

  private static String query(Path db, String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getString(1);
    }
  }
}
