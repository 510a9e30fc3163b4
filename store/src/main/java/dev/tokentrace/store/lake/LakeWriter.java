package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.DuckDbFiles;
import dev.tokentrace.store.TableAppender;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;

/**
 * Writes rows into the lake, per Kafka partition (docs/storage.md#lake-commit-protocol). Rows are
 * staged in an in-memory DuckDB, one schema per partition, through the same {@link TableAppender}
 * as the DuckDB file. A flush of a partition writes each table's staged rows with {@code COPY … TO
 * (FORMAT parquet)} to a temporary file, syncs and renames it to {@code
 * <table>/date=…/hour=…/<topic>-<partition>-<first>-<end>.parquet}, then replaces the partition's
 * manifest the same way: that rename is the commit. A crash before it leaves files past the
 * manifest's offset, which readers ignore and {@link #recover} removes.
 *
 * <p>Use: {@link #recover} a partition when it is assigned (removes what a crashed writer left,
 * returns where to resume), {@link #startAt} when it has no manifest yet, then {@link #append} rows
 * and {@link #advance} the position after each poll, and {@link #flush} every interval and on
 * revocation; {@link #discard} a partition that was lost. Not thread-safe.
 */
public final class LakeWriter implements AutoCloseable {
  private final Path lake;
  private final DuckDBConnection staging;
  private final Clock clock;

  /** Names this writer's files apart from another's of the same range (see LakeFile#fileName). */
  private final String tag = Long.toHexString(new java.security.SecureRandom().nextLong() >>> 24);

  private final Map<LakePartition, Staged> partitions = new TreeMap<>();
  private int schemas;

  private LakeWriter(Path lake, DuckDBConnection staging, Clock clock) {
    this.lake = lake;
    this.staging = staging;
    this.clock = clock;
  }

  /**
   * Opens a writer on the lake at {@code dir}, creating the lake (and its marker) if the directory
   * is missing or empty.
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake or
   *     belongs to another topic prefix or consumer group (see {@link LakeMarker#createOrCheck})
   */
  public static LakeWriter open(
      Path dir, LakeMarker marker, String memoryLimit, int threads, Clock clock) {
    requireNonNull(dir, "dir is null");
    requireNonNull(marker, "marker is null");
    requireNonNull(clock, "clock is null");
    Path lake = dir.toAbsolutePath();
    marker.createOrCheck(lake);
    try {
      DuckDBConnection connection =
          DriverManager.getConnection("jdbc:duckdb:", DuckDbFiles.writer(memoryLimit, threads))
              .unwrap(DuckDBConnection.class);
      return new LakeWriter(lake, connection, clock);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "lake " + lake + ": cannot open DuckDB: " + e.getMessage(), e);
    }
  }

  public Path lake() {
    return lake;
  }

  /**
   * Takes {@code partition} on: reads its manifest, removes the temporary files and the data files
   * past the manifest's offset that a crashed (or revoked) writer left, and returns where to
   * resume. Call before the first record of the partition is read, when no other writer owns it.
   *
   * @param topicId the topic's Kafka id
   * @throws IllegalArgumentException when the manifest belongs to another topic of the same name
   */
  public Recovery recover(LakePartition partition, String topicId) {
    requireNonNull(partition, "partition is null");
    requireNonNull(topicId, "topicId is null");
    discard(partition);
    LakeManifest manifest = LakeManifest.read(lake, partition);
    if (manifest != null && !manifest.topicId().equals(topicId)) {
      throw new IllegalArgumentException(
          "lake "
              + lake
              + " holds "
              + partition
              + " of topic id "
              + manifest.topicId()
              + ", but Kafka's topic "
              + partition.topic()
              + " has id "
              + topicId
              + " (deleted and created again, or another broker): its offsets start over; use"
              + " a new lake");
    }
    long committed = manifest == null ? Long.MIN_VALUE : manifest.nextOffset();
    List<Path> removed = new ArrayList<>();
    try {
      for (Path temp : LakeDirectories.temps(lake, partition)) {
        if (Files.deleteIfExists(temp)) {
          removed.add(temp);
        }
      }
      for (TableSchema<?> table : LakeTables.ALL) {
        for (LakeFile file : LakeSnapshot.dataFiles(lake, table.name())) {
          if (file.partition().equals(partition) && file.end() > committed) {
            if (Files.deleteIfExists(file.path())) {
              removed.add(file.path());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "lake " + lake + ": cannot remove what a crashed writer of " + partition + " left", e);
    }
    Staged staged = new Staged(schemas++, topicId, manifest);
    partitions.put(partition, staged);
    return new Recovery(
        partition,
        manifest == null ? OptionalLong.empty() : OptionalLong.of(manifest.nextOffset()),
        List.copyOf(removed));
  }

  /** The first position of a partition without a manifest (its log start, after a seek). */
  public void startAt(LakePartition partition, long position) {
    Staged staged = staged(partition);
    if (staged.first == Long.MIN_VALUE) {
      staged.first = position;
      staged.position = position;
    }
  }

  /** Whether {@code partition} was recovered and its position is known. */
  public boolean started(LakePartition partition) {
    Staged staged = partitions.get(partition);
    return staged != null && staged.first != Long.MIN_VALUE;
  }

  /** Stages one row of {@code table} from {@code partition}. */
  public <R> void append(LakePartition partition, TableSchema<R> table, R row) throws SQLException {
    Staged staged = staged(partition);
    TableAppender appender = staged.appenders.get(table);
    if (appender == null) {
      createStagingTable(staged, table);
      appender = TableAppender.open(staging, staged.schema(), table);
      staged.appenders.put(table, appender);
    }
    appender.append(table, row);
    staged.rows.merge(table, 1L, Long::sum);
  }

  /**
   * The consumer's position in {@code partition} after the records appended so far: the end of the
   * range the next flush commits (offsets skipped by transaction markers included).
   */
  public void advance(LakePartition partition, long position) {
    Staged staged = staged(partition);
    if (staged.first == Long.MIN_VALUE) {
      throw new IllegalStateException(partition + ": position unknown: call startAt first");
    }
    if (position < staged.position) {
      throw new IllegalStateException(
          partition + ": position went back from " + staged.position + " to " + position);
    }
    staged.position = position;
  }

  /** Rows staged and not yet flushed, over all partitions. */
  public long stagedRows() {
    long rows = 0;
    for (Staged staged : partitions.values()) {
      for (long count : staged.rows.values()) {
        rows += count;
      }
    }
    return rows;
  }

  /** The partitions this writer holds. */
  public Collection<LakePartition> partitions() {
    return List.copyOf(partitions.keySet());
  }

  /**
   * Flushes every partition with staged rows: see {@link #flush(Collection, boolean)}.
   *
   * @return the partitions committed, with their rows per table
   */
  public Flushed flush() throws SQLException, IOException {
    return flush(partitions.keySet(), false);
  }

  /**
   * Writes and commits the staged rows of each of {@code which}, partition by partition: each
   * table's file, then the manifest. A partition whose manifest another writer moved meanwhile
   * (this writer lost it in a rebalance without being told yet) is not committed: its files are
   * removed, its rows dropped, and it is listed in {@link Flushed#fenced()}.
   *
   * @param evenIfEmpty also commit a position that moved without rows (offsets of transaction
   *     markers or of records that gave no row), e.g. before giving a partition up
   */
  public Flushed flush(Collection<LakePartition> which, boolean evenIfEmpty)
      throws SQLException, IOException {
    Map<LakePartition, Map<String, Long>> committed = new LinkedHashMap<>();
    Map<LakePartition, Long> nextOffsets = new LinkedHashMap<>();
    List<LakePartition> fenced = new ArrayList<>();
    for (LakePartition partition : List.copyOf(which)) {
      Staged staged = partitions.get(partition);
      if (staged == null || staged.first == Long.MIN_VALUE) {
        continue;
      }
      boolean hasRows = !staged.rows.isEmpty();
      if (staged.position <= staged.first || !(hasRows || evenIfEmpty)) {
        continue;
      }
      Map<String, Long> rows = flush(partition, staged);
      if (rows == null) {
        fenced.add(partition);
      } else {
        committed.put(partition, rows);
        nextOffsets.put(partition, staged.first);
      }
    }
    return new Flushed(committed, nextOffsets, fenced);
  }

  /** Drops what is staged for {@code partition} and forgets it (lost in a rebalance). */
  public void discard(LakePartition partition) {
    Staged staged = partitions.remove(partition);
    if (staged == null) {
      return;
    }
    try (Statement statement = staging.createStatement()) {
      staged.closeAppenders();
      statement.execute("DROP SCHEMA IF EXISTS " + staged.schema() + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("lake staging: cannot drop " + partition, e);
    }
  }

  @Override
  public void close() {
    try {
      for (Staged staged : partitions.values()) {
        staged.closeAppenders();
      }
      staging.close();
    } catch (SQLException e) {
      throw new IllegalStateException("lake " + lake + ": closing the staging database failed", e);
    }
  }

  private @Nullable Map<String, Long> flush(LakePartition partition, Staged staged)
      throws SQLException, IOException {
    staged.closeAppenders();
    long first = staged.first;
    long end = staged.position;
    Instant now = clock.instant();
    String hour = LakeFile.hourDirectory(now);
    String name = LakeFile.fileName(partition, first, end, tag);
    Map<String, Long> rows = new TreeMap<>();
    List<Path> written = new ArrayList<>();
    try (Statement statement = staging.createStatement()) {
      for (Map.Entry<TableSchema<?>, Long> entry : staged.rows.entrySet()) {
        TableSchema<?> table = entry.getKey();
        Path target = lake.resolve(table.name()).resolve(hour).resolve(name);
        Path temp = LakeDirectories.temp(lake, partition + "." + table.name());
        try {
          statement.execute(
              "COPY "
                  + staged.schema()
                  + "."
                  + table.name()
                  + " TO "
                  + Lake.literal(temp.toString())
                  + " (FORMAT parquet)");
          LakeDirectories.moveIntoPlace(temp, target);
        } catch (SQLException | IOException e) {
          throw LakeDirectories.writeFailed(temp, e);
        } finally {
          Files.deleteIfExists(temp);
        }
        written.add(target);
        rows.put(table.name(), entry.getValue());
      }
      LakeManifest current = LakeManifest.read(lake, partition);
      long currentNext = current == null ? Long.MIN_VALUE : current.nextOffset();
      long expected = staged.manifest == null ? Long.MIN_VALUE : staged.manifest.nextOffset();
      if (currentNext != expected) {
        // another writer committed this partition since we took it: its rows are that writer's
        for (Path file : written) {
          Files.deleteIfExists(file);
        }
        discard(partition);
        return null;
      }
      Map<String, Long> total =
          new TreeMap<>(staged.manifest == null ? Map.of() : staged.manifest.rows());
      rows.forEach((table, count) -> total.merge(table, count, Long::sum));
      List<String> relative = new ArrayList<>();
      for (Path file : written) {
        relative.add(lake.relativize(file).toString());
      }
      LakeManifest manifest =
          new LakeManifest(
              partition.topic(),
              partition.partition(),
              staged.topicId,
              end,
              total,
              now.toString(),
              relative);
      manifest.commit(lake);
      staged.manifest = manifest;
      for (TableSchema<?> table : staged.rows.keySet()) {
        statement.execute("DELETE FROM " + staged.schema() + "." + table.name());
      }
    }
    staged.rows.clear();
    staged.first = end;
    return rows;
  }

  private void createStagingTable(Staged staged, TableSchema<?> table) throws SQLException {
    try (Statement statement = staging.createStatement()) {
      if (!staged.schemaCreated) {
        statement.execute("CREATE SCHEMA IF NOT EXISTS " + staged.schema());
        staged.schemaCreated = true;
      }
      StringBuilder ddl =
          new StringBuilder("CREATE TABLE IF NOT EXISTS ")
              .append(staged.schema())
              .append('.')
              .append(table.name())
              .append(" (");
      List<String> columns = new ArrayList<>();
      for (Column<?> column : table.columns()) {
        columns.add(column.definition());
      }
      statement.execute(ddl.append(String.join(", ", columns)).append(')').toString());
    }
  }

  private Staged staged(LakePartition partition) {
    Staged staged = partitions.get(partition);
    if (staged == null) {
      throw new IllegalStateException(partition + " was not recovered by this lake writer");
    }
    return staged;
  }

  /**
   * What {@link #recover} found.
   *
   * @param partition the partition
   * @param nextOffset where to resume, or empty when the lake holds nothing of it yet
   * @param removed temporary and uncommitted files of a crashed writer that were removed
   */
  public record Recovery(LakePartition partition, OptionalLong nextOffset, List<Path> removed) {}

  /**
   * What a flush committed.
   *
   * @param committed rows per table of each partition committed
   * @param nextOffsets the offset each committed partition resumes at now
   * @param fenced partitions another writer had committed meanwhile: nothing of them was committed
   */
  public record Flushed(
      Map<LakePartition, Map<String, Long>> committed,
      Map<LakePartition, Long> nextOffsets,
      List<LakePartition> fenced) {
    public long rows() {
      long rows = 0;
      for (Map<String, Long> tables : committed.values()) {
        for (long count : tables.values()) {
          rows += count;
        }
      }
      return rows;
    }
  }

  /** A partition's staging schema, its open Appenders, its range and last manifest. */
  private static final class Staged {
    private final int index;
    private final String topicId;
    private final Map<TableSchema<?>, TableAppender> appenders = new IdentityHashMap<>();
    private final Map<TableSchema<?>, Long> rows = new LinkedHashMap<>();
    private @Nullable LakeManifest manifest;
    private long first;
    private long position;
    private boolean schemaCreated;

    Staged(int index, String topicId, @Nullable LakeManifest manifest) {
      this.index = index;
      this.topicId = topicId;
      this.manifest = manifest;
      this.first = manifest == null ? Long.MIN_VALUE : manifest.nextOffset();
      this.position = first;
    }

    String schema() {
      return "p" + index;
    }

    void closeAppenders() throws SQLException {
      SQLException failure = null;
      for (TableAppender appender : appenders.values()) {
        try {
          appender.close();
        } catch (SQLException e) {
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        }
      }
      appenders.clear();
      if (failure != null) {
        throw failure;
      }
    }
  }
}
