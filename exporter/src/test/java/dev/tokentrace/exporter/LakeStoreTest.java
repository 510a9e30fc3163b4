package dev.tokentrace.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeWriter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exporter over a lake written by the lake writer: the gauges follow the files committed since
 * the last poll, while the attribution comes from the DuckDB file beside it, attached read-only per
 * poll.
 */
final class LakeStoreTest {
  private static final LakePartition P0 = new LakePartition("tokentrace.events", 0);
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T22:30:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  @Test
  void gaugesFollowTheLakeAndHistogramsTheAttributionFile() throws Exception {
    Path lake = dir.resolve("lake");
    Path file = dir.resolve("attribution.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(file))) {
      db.jdbi()
          .useHandle(
              h ->
                  h.execute(
                      "INSERT INTO request_attribution (run_id, client_format,"
                          + " client_source_path, client_source_line, request_id, request_key,"
                          + " status, warmup, join_status, client_rows, server_rows, arrival_rows,"
                          + " instance, token_mismatch, client_queue_recorded, server_derived,"
                          + " suspect, included, decode_ms, client_e2e_ms) VALUES ('r1', 'csv',"
                          + " 'c.csv', 1, 'a', 'a', 'ok', false, 'matched', 1, 1, 1, 'gpu0', false,"
                          + " false, false, false, true, 900, 1000)"));
    }
    try (LakeWriter writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "test"), "256MB", 1, CLOCK)) {
      writer.recover(P0, "topic-1");
      writer.startAt(P0, 0);
      writer.append(P0, EngineStats.TABLE, stats(1, 3));
      writer.advance(P0, 1);
      writer.flush();
      try (LakeStore store = new LakeStore(lake, file, DatabaseSettings.inMemory())) {
        MetricsExporter exporter = new MetricsExporter(store, CLOCK);
        assertThat(exporter.poll().newRequests()).isEqualTo(1);
        try (HTTPServer server = exporter.serve("127.0.0.1", 0)) {
          String text = MetricsExporterTest.scrape(server);
          assertThat(MetricsExporterTest.value(text, running())).isEqualTo(3);
          assertThat(
                  MetricsExporterTest.value(
                      text,
                      "tokentrace_request_component_seconds_sum{component=\"decode\",run=\"r1\","
                          + "server_instance=\"gpu0\"}"))
              .isEqualTo(0.9);

          writer.append(P0, EngineStats.TABLE, stats(2, 5)); // committed after the first poll
          writer.advance(P0, 2);
          writer.flush();
          MetricsExporter.PollResult again = exporter.poll();
          assertThat(again.ok()).isTrue();
          assertThat(again.newRequests()).isZero();
          text = MetricsExporterTest.scrape(server);
          assertThat(MetricsExporterTest.value(text, running())).isEqualTo(5);
          assertThat(
                  MetricsExporterTest.value(
                      text,
                      "tokentrace_store_event_rows{engine=\"vllm\",server_instance=\"gpu0\"}"))
              .isEqualTo(2);
        }
      }
    }
  }

  private static String running() {
    return "tokentrace_engine_running_requests{engine=\"vllm\",server_instance=\"gpu0\"}";
  }

  private static EngineStats stats(long line, int running) {
    return new EngineStats(
        Engine.VLLM,
        "gpu0",
        Instant.parse("2026-12-01T22:00:00Z").plusSeconds(line),
        new SourcePosition("/logs/a.log", line, line * 100),
        null,
        10.0,
        100.0,
        50.0,
        running,
        0,
        0,
        40.0,
        null,
        0);
  }
}
