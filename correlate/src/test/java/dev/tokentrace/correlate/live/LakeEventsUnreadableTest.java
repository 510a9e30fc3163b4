package dev.tokentrace.correlate.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue [3.2] item 6: a truncated lake file fails only what needs its table when the lake is copied
 * for {@code correlate --lake} and {@code report --lake}
 * (docs/storage.md#a-file-that-cannot-be-read).
 */
final class LakeEventsUnreadableTest {
  private static final LakePartition P0 = new LakePartition("tokentrace.events", 0);
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T22:30:00Z"), ZoneOffset.UTC);
  private static final Instant T0 = Instant.parse("2026-12-01T22:00:00Z");

  @TempDir Path dir;

  @Test
  void anUnreadableOptionalTableIsLeftEmptyAndSaidSo() throws Exception {
    Path lake = writeLake();
    Path notice = truncate(lake, "server_notice");
    try (Database db = Database.open(DatabaseSettings.file(dir.resolve("a.duckdb")))) {
      LakeEvents.Copied copied = LakeEvents.copy(lake, db);

      assertThat(copied.skipped())
          .singleElement()
          .asString()
          .contains("table server_notice cannot be read")
          .contains(notice.getFileName().toString())
          .endsWith("; its queries are skipped");
      assertThat(count(db, "request_arrived")).isEqualTo(1);
      assertThat(count(db, "engine_stats")).isEqualTo(1);
      assertThat(count(db, "server_notice")).isZero();
      // a later round (append) still copies the readable tables and skips the same one
      LakeEvents.Copied again = LakeEvents.copy(lake, db, copied);
      assertThat(again.skipped()).hasSize(1);
      assertThat(count(db, "request_arrived")).isEqualTo(1);
    }
  }

  @Test
  void anUnreadableRequestTableFailsTheCopyWithOneLineNamingTableAndFile() throws Exception {
    Path lake = writeLake();
    Path arrived = truncate(lake, "request_arrived");
    try (Database db = Database.open(DatabaseSettings.file(dir.resolve("b.duckdb")))) {
      assertThatThrownBy(() -> LakeEvents.copy(lake, db))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("table request_arrived cannot be read")
          .hasMessageContaining(arrived.getFileName().toString())
          .hasMessageContaining("the attribution needs this table: nothing was copied")
          .hasMessageNotContaining("\n");
      assertThat(count(db, "engine_stats")).isZero();
    }
  }

  private Path writeLake() throws Exception {
    Path lake = dir.resolve("lake");
    SourcePosition at = new SourcePosition("/logs/a.log", 1, 100);
    try (LakeWriter writer =
        LakeWriter.open(lake, LakeMarker.of("tokentrace", "test"), "256MB", 1, CLOCK)) {
      writer.recover(P0, "topic-1");
      writer.startAt(P0, 0);
      writer.append(
          P0,
          EngineStats.TABLE,
          new EngineStats(
              Engine.VLLM, "gpu0", T0, at, null, 10.0, 100.0, 50.0, 1, 0, 0, 40.0, null, 0));
      writer.append(
          P0,
          ServerNotice.TABLE,
          new ServerNotice(
              Engine.VLLM, "gpu0", T0, at, "WARNING", ServerNotice.Kind.WARNING, "a warning"));
      writer.append(
          P0,
          RequestArrived.TABLE,
          new RequestArrived(Engine.VLLM, "gpu0", T0, at, "req-1", "req-1", 10, 20));
      writer.advance(P0, 3);
      writer.flush();
    }
    return lake;
  }

  /** Cuts the table's one file in half, as a full disk or a copy cut short leaves it. */
  private static Path truncate(Path lake, String table) throws Exception {
    Path file;
    try (Stream<Path> files = Files.walk(lake)) {
      file =
          files
              .filter(f -> f.toString().endsWith(".parquet"))
              .filter(f -> f.toString().contains(table))
              .findFirst()
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
    return file;
  }

  private static long count(Database db, String table) {
    return db.jdbi()
        .withHandle(h -> h.createQuery("SELECT count(*) FROM " + table).mapTo(Long.class).one());
  }
}
