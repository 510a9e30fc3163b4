package dev.tokentrace.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exporter over a real DuckDB file and its real HTTP endpoint: one observation per included
 * request however often it is polled, new requests added on the next poll, the newest engine
 * snapshot in the gauges, and an unreadable store keeping the last values.
 */
final class MetricsExporterTest {
  @TempDir Path dir;

  @Test
  void observesEachIncludedRequestOnceAndTheNewestSnapshot() throws Exception {
    Path file = dir.resolve("run.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(file))) {
      db.jdbi()
          .useHandle(
              h -> {
                attributed(h, "r1", 1, "gpu0", true, 12.0, 1500.0);
                attributed(h, "r1", 2, "gpu0", true, 8.0, 2500.0);
                attributed(h, "r1", 3, "gpu0", false, 9.0, 9000.0); // excluded: never observed
                attributed(h, "r1", 4, "gpu1", true, 20.0, 500.0);
                stats(h, "gpu0", "2026-01-01 00:00:01", 3, 7, 41.5);
                stats(h, "gpu0", "2026-01-01 00:00:02", 4, 2, 50.0);
              });
    }
    MetricsExporter exporter =
        new MetricsExporter(new DuckDbFileStore(DatabaseSettings.file(file)), Clock.systemUTC());
    assertThat(exporter.poll().newRequests()).isEqualTo(3);
    assertThat(exporter.poll().newRequests()).isZero(); // read again, observed never twice
    try (HTTPServer server = exporter.serve("127.0.0.1", 0)) {
      String text = scrape(server);
      assertThat(
              value(
                  text,
                  "tokentrace_request_component_seconds_count{component=\"decode\",run=\"r1\","
                      + "server_instance=\"gpu0\"}"))
          .isEqualTo(2);
      assertThat(
              value(
                  text,
                  "tokentrace_request_component_seconds_sum{component=\"decode\",run=\"r1\","
                      + "server_instance=\"gpu0\"}"))
          .isEqualTo(4.0);
      assertThat(
              value(
                  text,
                  "tokentrace_request_component_seconds_count{component=\"network\",run=\"r1\","
                      + "server_instance=\"gpu1\"}"))
          .isEqualTo(1);
      assertThat(
              value(
                  text,
                  "tokentrace_request_e2e_seconds_count{run=\"r1\",server_instance=\"gpu0\"}"))
          .isEqualTo(2);
      assertThat(
              value(
                  text,
                  "tokentrace_engine_running_requests{engine=\"vllm\",server_instance=\"gpu0\"}"))
          .isEqualTo(4);
      assertThat(
              value(
                  text,
                  "tokentrace_engine_kv_cache_usage_ratio{engine=\"vllm\",server_instance=\"gpu0\"}"))
          .isEqualTo(0.5);
      assertThat(value(text, "tokentrace_exporter_store_up")).isEqualTo(1);

      try (Database db = Database.open(DatabaseSettings.file(file))) {
        db.jdbi().useHandle(h -> attributed(h, "r2", 1, "gpu0", true, 1.0, 100.0));
      }
      assertThat(exporter.poll().newRequests()).isEqualTo(1);
      text = scrape(server);
      assertThat(
              value(
                  text,
                  "tokentrace_request_component_seconds_count{component=\"decode\",run=\"r2\","
                      + "server_instance=\"gpu0\"}"))
          .isEqualTo(1);
      assertThat(
              value(
                  text,
                  "tokentrace_request_component_seconds_count{component=\"decode\",run=\"r1\","
                      + "server_instance=\"gpu0\"}"))
          .isEqualTo(2);
    }
  }

  @Test
  void anUnreadableStoreKeepsTheLastValuesAndSaysSo() throws Exception {
    Path file = dir.resolve("run.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(file))) {
      db.jdbi().useHandle(h -> attributed(h, "r1", 1, "gpu0", true, 12.0, 1500.0));
    }
    MetricsExporter exporter =
        new MetricsExporter(new DuckDbFileStore(DatabaseSettings.file(file)), Clock.systemUTC());
    assertThat(exporter.poll().ok()).isTrue();
    java.nio.file.Files.delete(file);
    MetricsExporter.PollResult failed = exporter.poll();
    assertThat(failed.ok()).isFalse();
    assertThat(failed.error()).contains(file.toString());
    try (HTTPServer server = exporter.serve("127.0.0.1", 0)) {
      String text = scrape(server);
      assertThat(value(text, "tokentrace_exporter_store_up")).isEqualTo(0);
      assertThat(value(text, "tokentrace_exporter_polls_total{result=\"error\"}")).isEqualTo(1);
      assertThat(
              value(
                  text,
                  "tokentrace_request_e2e_seconds_count{run=\"r1\",server_instance=\"gpu0\"}"))
          .isEqualTo(1);
    }
  }

  @Test
  void aPrefillDecodeRequestIsObservedPerPairWithItsTransferAndDecodeQueueing() throws Exception {
    Path file = dir.resolve("pd.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(file))) {
      db.jdbi()
          .useHandle(
              h -> {
                attributed(h, "r1", 1, "gpu0", true, 12.0, 1500.0); // single server: no P/D series
                attributed(h, "r1", 2, "prefill-0", true, 8.0, 2500.0);
                h.execute(
                    "UPDATE request_attribution SET decode_instance = 'decode-0',"
                        + " kv_transfer_ms = 250.0, decode_queue_ms = 125.0,"
                        + " kv_transfer_source = 'interval_estimate' WHERE client_source_line = 2");
              });
    }
    MetricsExporter exporter =
        new MetricsExporter(new DuckDbFileStore(DatabaseSettings.file(file)), Clock.systemUTC());
    assertThat(exporter.poll().newRequests()).isEqualTo(2);
    try (HTTPServer server = exporter.serve("127.0.0.1", 0)) {
      String text = scrape(server);
      String pair = ",run=\"r1\",server_instance=\"prefill-0/decode-0\"}";
      assertThat(
              value(
                  text,
                  "tokentrace_request_component_seconds_sum{component=\"kv_transfer\"" + pair))
          .isEqualTo(0.25);
      assertThat(
              value(
                  text,
                  "tokentrace_request_component_seconds_sum{component=\"decode_queue\"" + pair))
          .isEqualTo(0.125);
      assertThat(
              value(text, "tokentrace_request_component_seconds_count{component=\"decode\"" + pair))
          .isEqualTo(1);
      assertThat(text)
          .doesNotContain("component=\"kv_transfer\",run=\"r1\",server_instance=\"gpu0\"");
    }
  }

  private static void attributed(
      Handle h, String run, int line, String instance, boolean included, double net, double dec) {
    h.createUpdate(
            "INSERT INTO request_attribution (run_id, client_format, client_source_path,"
                + " client_source_line, request_id, request_key, status, warmup, join_status,"
                + " client_rows, server_rows, arrival_rows, instance, engine, token_mismatch,"
                + " client_queue_recorded, server_derived, suspect, included, network_ms,"
                + " client_queue_ms, queue_ms, prefill_ms, decode_ms, client_ttft_ms, client_e2e_ms,"
                + " mlt_ms) VALUES (:run, 'csv', 'c.csv', :line, :id, :id, 'ok', false, 'matched',"
                + " 1, 1, 1, :instance, 'vllm', false, false, false, false, :included, :net, 0, 30,"
                + " 40, :dec, 82, 82 + :dec, 20)")
        .bind("run", run)
        .bind("line", line)
        .bind("id", run + "-" + line)
        .bind("instance", instance)
        .bind("included", included)
        .bind("net", net)
        .bind("dec", dec)
        .execute();
  }

  private static void stats(
      Handle h, String instance, String ts, int running, int waiting, double kv) {
    h.createUpdate(
            "INSERT INTO engine_stats (engine, instance, ts, source_path, source_line,"
                + " source_offset, running, waiting, kv_usage_pct) VALUES ('vllm', :instance,"
                + " CAST(:ts AS TIMESTAMP), 'server.log', 1, 0, :running, :waiting, :kv)")
        .bind("instance", instance)
        .bind("ts", ts)
        .bind("running", running)
        .bind("waiting", waiting)
        .bind("kv", kv)
        .execute();
  }

  static String scrape(HTTPServer server) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.getPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  /** The value of the sample named exactly (name and labels as exposed). */
  static double value(String text, String sample) {
    Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(sample) + " (\\S+)$").matcher(text);
    assertThat(matcher.find()).as("%s in%n%s", sample, text).isTrue();
    return Double.parseDouble(matcher.group(1));
  }
}
