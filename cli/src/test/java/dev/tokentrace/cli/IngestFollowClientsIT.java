package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.lake.Lake;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest --follow --once --lake} over a mixed folder (docs/follow.md#client-files): engine
 * logs, a client CSV, NGINX and Envoy access logs and a JMeter JTL, all named by one glob. Each
 * file's kind is detected by content and said per file; the client and gateway rows land in the
 * lake's {@code client_timing} as the batch readers read them, under the run {@code --run}; the
 * JTL, a format that is not followed, is refused by name.
 */
final class IngestFollowClientsIT {
  @TempDir Path dir;

  @Test
  void aMixedFolderIsSortedByContentFileByFile() throws Exception {
    Path sample = GoldenSamplesTest.SAMPLES.resolve("vllm").resolve("v0.16-gateway-bottleneck");
    Path mixed = Files.createDirectories(dir.resolve("mixed"));
    Map<String, String> names =
        Map.of(
            "server.log", "a.log",
            "otlp.jsonl", "b.jsonl",
            "client_timings.csv", "c.csv",
            "client_nginx_access.log", "d.log",
            "client_envoy_access.log", "e.log",
            "client_jmeter.jtl", "f.jtl");
    for (Map.Entry<String, String> file : names.entrySet()) {
      Files.copy(sample.resolve(file.getKey()), mixed.resolve(file.getValue()));
    }
    Path lake = dir.resolve("lake");
    int code;
    String output;
    try (ChildJvm ingest =
        ChildJvm.start(
            dir,
            "ingest",
            "512m",
            "ingest",
            "--follow",
            "--once",
            "--lake",
            lake.toString(),
            "--kafka-data-dir",
            dir.resolve("kafka").toString(),
            "--partitions",
            "1",
            "--run",
            "mixed-1",
            "--year",
            "2026",
            "--status-interval",
            "0s",
            mixed.resolve("*").toString())) {
      code = ingest.waitFor(ChildJvm.STOP_TIMEOUT.multipliedBy(4));
      output = ingest.output();
    }
    assertThat(output)
        .contains(mixed.resolve("a.log") + ": vllm detected")
        .contains(mixed.resolve("b.jsonl") + ": vllm detected")
        .contains(mixed.resolve("c.csv") + ": client file, format csv")
        .contains(mixed.resolve("d.log") + ": client file, format nginx")
        .contains(mixed.resolve("e.log") + ": client file, format envoy")
        .contains(mixed.resolve("f.jtl") + ": a jmeter client file: only csv, aiperf, nginx");
    assertThat(code).as(output).isNotZero(); // the refused JTL

    Map<String, Long> expected = new HashMap<>();
    expected.put("csv", dataLines(mixed.resolve("c.csv")) - 1);
    expected.put("nginx", dataLines(mixed.resolve("d.log")));
    expected.put("envoy", dataLines(mixed.resolve("e.log")));
    Map<String, Long> stored = new HashMap<>();
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT client_format, count(*), count(DISTINCT run_id), min(run_id)"
                    + " FROM client_timing GROUP BY 1")) {
      while (rows.next()) {
        stored.put(rows.getString(1), rows.getLong(2));
        assertThat(rows.getLong(3)).isOne();
        assertThat(rows.getString(4)).isEqualTo("mixed-1");
      }
    }
    assertThat(stored).isEqualTo(expected);
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT count(*) FROM request_timing")) {
      rows.next();
      assertThat(rows.getLong(1)).isPositive();
    }
  }

  /**
   * An NGINX log in the gateway's own log_format, given as {@code --log-format}: detected as nginx
   * by that layout and its rows land in the lake's {@code client_timing}; a line of another layout
   * is a rejection.
   */
  @Test
  void aGatewayLogInItsOwnLogFormatIsFollowedWithLogFormat() throws Exception {
    String logFormat =
        "log_format gw '$remote_addr [$time_local] \"$request\" $status rt=$request_time"
            + " ts=$msec rid=$http_x_request_id';";
    Path log = dir.resolve("gw.log");
    Files.writeString(
        log,
        "10.0.0.7 [02/Dec/2026:03:00:00 +0000] \"POST /v1/completions HTTP/1.1\" 200 rt=0.912"
            + " ts=1796180400.912 rid=req-1\n"
            + "10.0.0.7 [02/Dec/2026:03:00:01 +0000] \"POST /v1/completions HTTP/1.1\" 200"
            + " rt=0.050 ts=1796180401.050 rid=req-2\n"
            + "10.0.0.7 [02/Dec/2026:03:00:02 +0000] \"POST /v1/completions HTTP/1.1\" 503"
            + " rt=0.004 ts=1796180402.004 rid=req-3\n");
    Path lake = dir.resolve("lake");
    int code;
    String output;
    try (ChildJvm ingest =
        ChildJvm.start(
            dir,
            "ingest",
            "512m",
            "ingest",
            "--follow",
            "--once",
            "--lake",
            lake.toString(),
            "--kafka-data-dir",
            dir.resolve("kafka").toString(),
            "--partitions",
            "1",
            "--run",
            "gw-1",
            "--log-format",
            logFormat,
            "--status-interval",
            "0s",
            log.toString())) {
      code = ingest.waitFor(ChildJvm.STOP_TIMEOUT.multipliedBy(4));
      output = ingest.output();
    }
    assertThat(output).contains(log + ": client file, format nginx");
    assertThat(code).as(output).isZero();
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT request_id, e2e_ms, status, run_id, client_format FROM client_timing"
                    + " ORDER BY request_id")) {
      List<String> stored = new java.util.ArrayList<>();
      while (rows.next()) {
        stored.add(
            rows.getString(1)
                + " "
                + rows.getDouble(2)
                + " "
                + rows.getString(3)
                + " "
                + rows.getString(4)
                + " "
                + rows.getString(5));
      }
      assertThat(stored)
          .containsExactly(
              "req-1 912.0 ok gw-1 nginx",
              "req-2 50.0 ok gw-1 nginx",
              "req-3 4.0 http 503 gw-1 nginx");
    }
  }

  /** A log_format no gateway reader can use is refused before anything starts: one line, exit 2. */
  @Test
  void aLogFormatWithoutTimingsIsAUsageError() throws Exception {
    Path log = Files.writeString(dir.resolve("gw.log"), "");
    SqlRuns.Result result =
        SqlRuns.run(
            "ingest",
            "--follow",
            "--once",
            "--lake",
            dir.resolve("lake").toString(),
            "--log-format",
            "log_format gw '$msec $http_x_request_id';",
            log.toString());
    assertThat(result.code()).as(result.err()).isEqualTo(ExitCodes.USAGE);
    // the problem in one line, then the usual pointer to --help
    assertThat(result.err().strip().lines())
        .hasSize(2)
        .first()
        .asString()
        .startsWith("ingest: --log-format cannot be read: nginx:")
        .contains("$request_time");
  }

  private static long dataLines(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    return lines.stream().filter(line -> !line.isBlank()).count();
  }
}
