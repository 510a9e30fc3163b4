package dev.tokentrace.store.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.store.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class LakeTest {
  static final LakeMarker MARKER = LakeMarker.of("tokentrace", "g1");
  static final LakePartition P0 = new LakePartition("tokentrace.events", 0);
  static final LakePartition P1 = new LakePartition("tokentrace.events", 1);
  static final String TOPIC_ID = "topic-id-1";
  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T22:30:00Z"), ZoneOffset.UTC);

  @TempDir Path dir;

  static RequestArrived arrived(String key, long line) {
    return new RequestArrived(
        Engine.VLLM,
        "gpu0",
        Instant.parse("2026-12-01T22:00:00Z").plusMillis(line),
        new SourcePosition("/logs/a.log", line, line * 100),
        "chatcmpl-" + key,
        key,
        12,
        null);
  }

  static LakeWriter writer(Path lake) {
    return LakeWriter.open(lake, MARKER, "256MB", 1, CLOCK);
  }

  /** A writer on {@code lake} (group g1, the fixed clock) set up by {@link Setup}. */
  static Setup setup(Path lake) {
    return new Setup(lake);
  }

  /**
   * Opens a lake writer and takes partitions on the way a sink does on assignment: {@code recover}
   * each, {@code startAt} a first offset where the lake holds nothing of it yet.
   */
  static final class Setup {
    private final Path lake;
    private final java.util.Map<LakePartition, Long> starts = new java.util.LinkedHashMap<>();

    private Setup(Path lake) {
      this.lake = lake;
    }

    /** Takes {@code partition} on, starting at {@code first} when it has no manifest yet. */
    Setup partition(LakePartition partition, long first) {
      starts.put(partition, first);
      return this;
    }

    /** Opens the writer, recovers every partition and starts those without a manifest. */
    LakeWriter open() {
      LakeWriter writer = writer(lake);
      for (var start : starts.entrySet()) {
        writer.recover(start.getKey(), TOPIC_ID);
      }
      for (var start : starts.entrySet()) {
        writer.startAt(start.getKey(), start.getValue());
      }
      return writer;
    }

    /**
     * Opens the writer, commits each partition's rows from its first offset to {@code end} in one
     * flush and closes it.
     */
    void committed(long end) throws Exception {
      try (LakeWriter writer = open()) {
        for (LakePartition partition : starts.keySet()) {
          write(writer, partition, starts.get(partition), end);
        }
        writer.flush();
      }
    }
  }

  /** Appends one request_arrived row per offset in [first, end) of {@code partition}. */
  static void write(LakeWriter writer, LakePartition partition, long first, long end)
      throws Exception {
    for (long offset = first; offset < end; offset++) {
      writer.append(partition, RequestArrived.TABLE, arrived(partition + "@" + offset, offset + 1));
    }
    writer.advance(partition, end);
  }

  static List<String> keys(Path lake) throws Exception {
    try (Database database = Lake.openReader(lake);
        Connection connection = database.newConnection();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery("SELECT request_key FROM request_arrived ORDER BY 1")) {
      List<String> keys = new ArrayList<>();
      while (rows.next()) {
        keys.add(rows.getString(1));
      }
      return keys;
    }
  }

  static List<String> expected(LakePartition partition, long first, long end) {
    List<String> keys = new ArrayList<>();
    for (long offset = first; offset < end; offset++) {
      keys.add(partition + "@" + offset);
    }
    return keys;
  }

  @Test
  void writesCommittedFilesAndEveryTableIsAView() throws Exception {
    Path lake = dir.resolve("lake");
    try (LakeWriter writer = writer(lake)) {
      assertThat(writer.recover(P0, TOPIC_ID).nextOffset()).isEmpty();
      writer.startAt(P0, 0);
      write(writer, P0, 0, 5);
      writer.append(
          P0,
          RejectRow.TABLE,
          new RejectRow("/logs/a.log", 9, 900, "vllm", "unknown line", "x", CLOCK.instant()));
      writer.advance(P0, 6);
      LakeWriter.Flushed flushed = writer.flush();
      assertThat(flushed.rows()).isEqualTo(6);
      write(writer, P0, 6, 9);
      writer.flush();
    }
    assertThat(Files.list(lake.resolve("request_arrived/date=2026-12-01/hour=22")).count())
        .isEqualTo(2);
    assertThat(LakeManifest.read(lake, P0).nextOffset()).isEqualTo(9);
    assertThat(LakeManifest.read(lake, P0).rows())
        .containsEntry("request_arrived", 8L)
        .containsEntry("rejects", 1L);
    List<String> want = new ArrayList<>(expected(P0, 0, 5));
    want.addAll(expected(P0, 6, 9));
    assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(want);
    try (Database database = Lake.openReader(lake);
        Connection connection = database.newConnection();
        Statement statement = connection.createStatement();
        ResultSet rows =
            statement.executeQuery(
                "SELECT (SELECT count(*) FROM batch_step), (SELECT count(*) FROM rejects),"
                    + " (SELECT typeof(ts) FROM request_arrived LIMIT 1)")) {
      rows.next();
      assertThat(rows.getLong(1)).isZero(); // no file yet: an empty view with its columns
      assertThat(rows.getLong(2)).isEqualTo(1);
      assertThat(rows.getString(3)).isEqualTo("TIMESTAMP");
    }
  }

  @Test
  void resumesAfterTheManifestAndRemovesWhatACrashLeft() throws Exception {
    Path lake = dir.resolve("lake");
    setup(lake).partition(P0, 0).committed(10);
    // a crash after a data file was renamed but before the manifest: an orphan, and a temp file
    Path hour = lake.resolve("request_arrived/date=2026-12-01/hour=22");
    Path orphan = hour.resolve(LakeFile.fileName(P0, 10, 20, "dead"));
    Files.copy(LakeSnapshot.scan(lake).files("request_arrived").get(0).path(), orphan);
    Path temp = LakeDirectories.temp(lake, P0 + ".request_arrived");
    Files.writeString(temp, "half a file");
    assertThat(keys(lake)).hasSize(10); // readers ignore both
    assertThat(LakeSnapshot.scan(lake).uncommitted()).extracting(LakeFile::path).contains(orphan);
    try (LakeWriter writer = writer(lake)) {
      LakeWriter.Recovery recovery = writer.recover(P0, TOPIC_ID);
      assertThat(recovery.nextOffset()).hasValue(10);
      assertThat(recovery.removed()).containsExactlyInAnyOrder(orphan, temp);
      write(writer, P0, 10, 15);
      writer.flush();
    }
    assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(expected(P0, 0, 15));
  }

  @Test
  void twoFilesOfOneRangeCountOnce() throws Exception {
    Path lake = dir.resolve("lake");
    setup(lake).partition(P0, 0).committed(10);
    // what a fenced writer would have left had it not removed it: the same range, another tag
    LakeFile file = LakeSnapshot.scan(lake).files("request_arrived").get(0);
    Files.copy(file.path(), file.path().resolveSibling(LakeFile.fileName(P0, 0, 10, "other")));
    assertThat(LakeSnapshot.scan(lake).superseded()).hasSize(1);
    assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(expected(P0, 0, 10));
  }

  @Test
  void partitionsCommitIndependently() throws Exception {
    Path lake = dir.resolve("lake");
    try (LakeWriter writer = setup(lake).partition(P0, 0).partition(P1, 100).open()) {
      write(writer, P0, 0, 3);
      write(writer, P1, 100, 104);
      writer.flush(List.of(P1), false);
      assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(expected(P1, 100, 104));
      writer.flush();
    }
    List<String> want = new ArrayList<>(expected(P0, 0, 3));
    want.addAll(expected(P1, 100, 104));
    assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(want);
  }

  @Test
  void aWriterThatLostItsPartitionIsFenced() throws Exception {
    Path lake = dir.resolve("lake");
    try (LakeWriter zombie = setup(lake).partition(P0, 0).open();
        LakeWriter owner = setup(lake).partition(P0, 0).open()) {
      write(zombie, P0, 0, 5);
      write(owner, P0, 0, 3);
      owner.flush();
      LakeWriter.Flushed flushed = zombie.flush();
      assertThat(flushed.fenced()).containsExactly(P0);
      assertThat(flushed.committed()).isEmpty();
    }
    assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(expected(P0, 0, 3));
  }

  @Test
  void compactionMergesAndReadersNeverCountTwice() throws Exception {
    Path lake = dir.resolve("lake");
    try (LakeWriter writer = setup(lake).partition(P0, 0).open()) {
      for (int flush = 0; flush < 5; flush++) {
        write(writer, P0, flush * 10L, flush * 10L + 10);
        writer.flush();
      }
    }
    LakeCompactor.Result result =
        LakeCompactor.compact(
            lake, LakeCompactor.Settings.defaults(), p -> true, CLOCK.instant().plusSeconds(7200));
    assertThat(result.merged()).isEqualTo(5);
    assertThat(result.written()).isEqualTo(1);
    // the inputs stay for the grace period: a reader that listed them still finds them
    LakeSnapshot snapshot = LakeSnapshot.scan(lake);
    assertThat(snapshot.files("request_arrived")).hasSize(1);
    assertThat(snapshot.superseded()).hasSize(5);
    assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(expected(P0, 0, 50));
    LakeCompactor.Result later =
        LakeCompactor.compact(
            lake,
            LakeCompactor.Settings.defaults(),
            p -> true,
            Instant.now().plus(LakeCompactor.Settings.defaults().grace()).plusSeconds(1));
    assertThat(later.deleted()).isEqualTo(5);
    assertThat(LakeSnapshot.scan(lake).superseded()).isEmpty();
    assertThat(keys(lake)).containsExactlyInAnyOrderElementsOf(expected(P0, 0, 50));
  }

  @Test
  void aForeignDirectoryAndAnotherGroupAreClearErrors() throws Exception {
    Path foreign = dir.resolve("foreign");
    Files.createDirectories(foreign);
    Files.writeString(foreign.resolve("notes.txt"), "mine");
    assertThatThrownBy(() -> writer(foreign))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not empty and not a tokentrace lake");
    assertThatThrownBy(() -> Lake.openReader(foreign))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a tokentrace lake");
    Path lake = dir.resolve("lake");
    writer(lake).close();
    assertThatThrownBy(
            () -> LakeWriter.open(lake, LakeMarker.of("tokentrace", "g2"), "256MB", 1, CLOCK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("consumer group 'g1', not 'g2'");
    assertThatThrownBy(() -> LakeWriter.open(lake, LakeMarker.of("other", "g1"), "256MB", 1, CLOCK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("topic prefix 'tokentrace', not 'other'");
  }

  @Test
  void anotherTopicOfTheSameNameIsRefused() throws Exception {
    Path lake = dir.resolve("lake");
    setup(lake).partition(P0, 0).committed(2);
    try (LakeWriter writer = writer(lake)) {
      assertThatThrownBy(() -> writer.recover(P0, "topic-id-2"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("use a new lake");
    }
  }

  static long count(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).count();
    }
  }
}
