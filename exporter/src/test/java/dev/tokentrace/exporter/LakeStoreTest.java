package dev.tokentrace.exporter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeWriter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
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

  /**
   * A truncated lake file fails only the reads of its table
   * (docs/live.md#a-table-that-cannot-be-read): the engine gauges and the histograms are still read
   * and served, the pipeline health (which reads every table) keeps its last values, the poll
   * counts as an error naming the file.
   */
  @Test
  void aTruncatedFileFailsOnlyTheReadsOfItsTable() throws Exception {
    Path lake = dir.resolve("lake");
    try (LakeWriter writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "test"), "256MB", 1, CLOCK)) {
      writer.recover(P0, "topic-1");
      writer.startAt(P0, 0);
      writer.append(P0, EngineStats.TABLE, stats(1, 3));
      writer.append(
          P0,
          ServerNotice.TABLE,
          new ServerNotice(
              Engine.VLLM,
              "gpu0",
              Instant.parse("2026-12-01T22:00:05Z"),
              new SourcePosition("/logs/a.log", 2, 200),
              "WARNING",
              ServerNotice.Kind.WARNING,
              "a warning"));
      writer.advance(P0, 2);
      writer.flush();
    }
    List<Path> notices;
    try (Stream<Path> files = Files.walk(lake)) {
      notices =
          files
              .filter(f -> f.toString().endsWith(".parquet"))
              .filter(f -> f.toString().contains("server_notice"))
              .toList();
    }
    assertThat(notices).hasSize(1);
    byte[] bytes = Files.readAllBytes(notices.get(0));
    Files.write(notices.get(0), Arrays.copyOf(bytes, bytes.length / 2));

    try (LakeStore store = new LakeStore(lake, null, DatabaseSettings.inMemory())) {
      try (StoreReader.Session session = store.open();
          Statement statement = session.connection().createStatement()) {
        try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM engine_stats")) {
          assertThat(rows.next()).isTrue();
          assertThat(rows.getLong(1)).isEqualTo(1);
        }
      }
      try (StoreReader.Session session = store.open();
          Statement statement = session.connection().createStatement()) {
        assertThatThrownBy(
                () ->
                    statement.executeQuery("SELECT count(*) FROM server_notice WHERE level = 'x'"))
            .hasMessageContaining("table server_notice cannot be read")
            .hasMessageContaining(notices.get(0).getFileName().toString());
      }
      MetricsExporter exporter = new MetricsExporter(store, CLOCK);
      MetricsExporter.PollResult poll = exporter.poll();
      assertThat(poll.ok()).isFalse();
      assertThat(poll.error()).contains("table server_notice cannot be read");
      try (HTTPServer server = exporter.serve("127.0.0.1", 0)) {
        String text = MetricsExporterTest.scrape(server);
        assertThat(MetricsExporterTest.value(text, running())).isEqualTo(3);
        assertThat(MetricsExporterTest.value(text, "tokentrace_exporter_store_up")).isZero();
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
