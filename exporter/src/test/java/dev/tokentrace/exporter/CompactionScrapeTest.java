package dev.tokentrace.exporter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeCompactor;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeWriter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An exporter scraped while the lake compacts (docs/live.md#reading-a-lake): rows are committed one
 * file at a time while a compactor merges them and deletes the merged inputs, and every scrape
 * shows a count between the last one shown and the rows committed (never a row twice, never one
 * lost), and a gauge from the same poll as the count (the newest row's {@code running} is its line
 * number, so a scrape mixing two polls would show them apart). A poll that meets a file deleted
 * under it fails whole and the last values stay.
 */
final class CompactionScrapeTest {
  private static final LakePartition P0 = new LakePartition("tokentrace.events", 0);
  private static final int ROWS = 60;

  @TempDir Path dir;

  @Test
  void scrapesWhileCompactingNeverCountARowTwiceNorMixTwoPolls() throws Exception {
    Path lake = dir.resolve("lake");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger passes = new AtomicInteger();
    AtomicReference<Throwable> compactorFailure = new AtomicReference<>();
    try (LakeWriter writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "test"), "256MB", 1, Clock.systemUTC())) {
      writer.recover(P0, "topic-1");
      writer.startAt(P0, 0);
      commit(writer, 1);
      Thread compactor =
          new Thread(
              () -> {
                LakeCompactor.Settings settings =
                    new LakeCompactor.Settings(2, 64L << 20, Duration.ofMillis(500));
                while (!stop.get()) {
                  try {
                    // an hour still being written merges once it has minFiles files: 2 here
                    LakeCompactor.compact(lake, settings, p -> true, Instant.now());
                    passes.incrementAndGet();
                  } catch (RuntimeException e) {
                    compactorFailure.compareAndSet(null, e);
                  }
                }
              },
              "compactor");
      compactor.start();
      try (LakeStore store = new LakeStore(lake, null, DatabaseSettings.inMemory())) {
        MetricsExporter exporter = new MetricsExporter(store, Clock.systemUTC());
        try (HTTPServer server = exporter.serve("127.0.0.1", 0)) {
          double shown = 0;
          int failedPolls = 0;
          for (int line = 2; line <= ROWS; line++) {
            commit(writer, line);
            if (!exporter.poll().ok()) {
              failedPolls++;
            }
            String text = MetricsExporterTest.scrape(server);
            double rows = MetricsExporterTest.value(text, rows());
            double running = MetricsExporterTest.value(text, running());
            assertThat(rows).as("after line %d", line).isBetween(shown, (double) line);
            assertThat(running).as("the same poll's gauge, after line %d", line).isEqualTo(rows);
            shown = rows;
          }
          assertThat(failedPolls).as("polls failing on a merged-away file").isLessThan(ROWS / 2);
          stop.set(true);
          compactor.join();
          assertThat(exporter.poll().ok()).isTrue();
          String text = MetricsExporterTest.scrape(server);
          assertThat(MetricsExporterTest.value(text, rows())).isEqualTo(ROWS);
          assertThat(MetricsExporterTest.value(text, running())).isEqualTo(ROWS);
        }
      } finally {
        stop.set(true);
        compactor.join();
      }
    }
    assertThat(compactorFailure.get()).isNull();
    assertThat(passes.get()).isPositive();
  }

  private static void commit(LakeWriter writer, int line) throws Exception {
    writer.append(P0, EngineStats.TABLE, stats(line));
    writer.advance(P0, line);
    writer.flush();
  }

  private static String rows() {
    return "tokentrace_store_event_rows{engine=\"vllm\",server_instance=\"gpu0\"}";
  }

  private static String running() {
    return "tokentrace_engine_running_requests{engine=\"vllm\",server_instance=\"gpu0\"}";
  }

  private static EngineStats stats(long line) {
    return new EngineStats(
        Engine.VLLM,
        "gpu0",
        Instant.parse("2026-12-01T22:00:00Z").plusSeconds(line),
        new SourcePosition("/logs/a.log", line, line * 100),
        null,
        10.0,
        100.0,
        50.0,
        (int) line,
        0,
        0,
        40.0,
        null,
        0);
  }
}
