package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.DuckDbFiles;
import dev.tokentrace.table.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Merges a lake's small files (docs/storage.md#compaction): per table, partition and hour
 * directory, a run of consecutive small files (in offset order) becomes one file covering the union
 * of their ranges, written like any file (temp name, sync, rename). Its inputs are not deleted
 * then: readers choose the widest file and skip those within it ({@link LakeSnapshot}), so a reader
 * never counts a row twice, and a reader that listed the inputs before still finds them. A later
 * pass deletes inputs whose merged file is older than the grace period. An hour that is over is
 * merged as soon as it has two small files; the current hour once it has {@link
 * Settings#minFiles()}, so the file being grown is not rewritten on every pass.
 */
public final class LakeCompactor {
  private static final Pattern HOUR = Pattern.compile("date=(\\d{4}-\\d{2}-\\d{2})/hour=(\\d{2})");

  /** DuckDB's message for a listed file that does not exist (any more). */
  static final String FILE_GONE = "No files found that match the pattern";

  private LakeCompactor() {}

  /**
   * @param minFiles small files in the current hour's run before it is merged
   * @param targetBytes files at least this large are not merged again
   * @param grace how long a merged file's inputs are kept for readers that listed them
   */
  public record Settings(int minFiles, long targetBytes, Duration grace) {
    public static final int DEFAULT_MIN_FILES = 30;
    public static final long DEFAULT_TARGET_BYTES = 64L << 20;
    public static final Duration DEFAULT_GRACE = Duration.ofMinutes(1);

    public Settings {
      requireNonNull(grace, "grace is null");
      if (minFiles < 2) {
        throw new IllegalArgumentException("minFiles must be >= 2: " + minFiles);
      }
      if (targetBytes < 1) {
        throw new IllegalArgumentException("targetBytes must be >= 1: " + targetBytes);
      }
    }

    public static Settings defaults() {
      return new Settings(DEFAULT_MIN_FILES, DEFAULT_TARGET_BYTES, DEFAULT_GRACE);
    }

    /** These settings with another grace period. */
    public Settings withGrace(Duration grace) {
      return new Settings(minFiles, targetBytes, grace);
    }
  }

  /**
   * What a pass did.
   *
   * @param written merged files written
   * @param merged small files merged into them (deleted by a later pass)
   * @param deleted inputs of earlier merges deleted, their grace period over
   * @param overlapping files left out of every read because they overlap another (see {@link
   *     LakeSnapshot#overlapping()})
   */
  public record Result(int written, int merged, int deleted, List<LakeFile> overlapping) {
    public String describe() {
      return "merged "
          + merged
          + " files into "
          + written
          + ", deleted "
          + deleted
          + " merged earlier"
          + (overlapping.isEmpty() ? "" : ", " + overlapping.size() + " OVERLAPPING left out");
    }
  }

  /**
   * One pass over the partitions {@code owned} accepts.
   *
   * @param now the time that decides whether an hour is over and a grace period has passed
   */
  public static Result compact(
      Path dir, Settings settings, Predicate<LakePartition> owned, Instant now) {
    return compact(dir, settings, owned, now, () -> false);
  }

  /**
   * Like {@link #compact(Path, Settings, Predicate, Instant)}, checking {@code stop} before each
   * merge, so that a sink asked to stop ends its pass at once (what is merged so far stays merged).
   */
  public static Result compact(
      Path dir,
      Settings settings,
      Predicate<LakePartition> owned,
      Instant now,
      BooleanSupplier stop) {
    Path lake = dir.toAbsolutePath();
    LakeSnapshot snapshot = LakeSnapshot.scan(lake);
    int deleted = deleteSuperseded(snapshot, settings, owned, now);
    int written = 0;
    int merged = 0;
    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:", DuckDbFiles.writer("512MB", 1));
        Statement statement = connection.createStatement()) {
      for (TableSchema<?> table : LakeTables.ALL) {
        for (List<LakeFile> run : runs(snapshot.files(table.name()), settings, owned, now)) {
          if (stop.getAsBoolean()) {
            return new Result(written, merged, deleted, snapshot.overlapping());
          }
          if (merge(lake, statement, table, run)) {
            written++;
            merged += run.size();
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("lake " + lake + ": compaction failed: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("lake " + lake + ": compaction failed", e);
    }
    return new Result(written, merged, deleted, snapshot.overlapping());
  }

  /** The runs of consecutive small files to merge, per partition and hour directory. */
  static List<List<LakeFile>> runs(
      List<LakeFile> files, Settings settings, Predicate<LakePartition> owned, Instant now) {
    Map<String, List<LakeFile>> groups = new LinkedHashMap<>();
    for (LakeFile file : files) {
      if (owned.test(file.partition())) {
        groups
            .computeIfAbsent(
                file.partition() + "|" + file.hourDirectory(), key -> new ArrayList<>())
            .add(file);
      }
    }
    List<List<LakeFile>> runs = new ArrayList<>();
    for (List<LakeFile> group : groups.values()) {
      int needed = hourOver(group.get(0).hourDirectory(), now) ? 2 : settings.minFiles();
      List<LakeFile> run = new ArrayList<>();
      for (LakeFile file : group) { // already in offset order, non-overlapping
        if (file.bytes() < settings.targetBytes()) {
          run.add(file);
          continue;
        }
        if (run.size() >= needed) {
          runs.add(List.copyOf(run));
        }
        run.clear();
      }
      if (run.size() >= needed) {
        runs.add(List.copyOf(run));
      }
    }
    return runs;
  }

  /**
   * Merges one run; false when one of its files is gone (another compaction, of a sink or of {@code
   * tokentrace compact}, merged and deleted it after this pass's snapshot): the run is left to a
   * later pass.
   */
  private static boolean merge(
      Path lake, Statement statement, TableSchema<?> table, List<LakeFile> run)
      throws SQLException, IOException {
    LakeFile first = run.get(0);
    LakeFile last = run.get(run.size() - 1);
    Path target =
        first
            .hourDirectory()
            .resolve(LakeFile.fileName(first.partition(), first.first(), last.end(), "c"));
    Path temp = LakeDirectories.temp(lake, first.partition() + ".compact." + table.name());
    try {
      statement.execute(
          "COPY (SELECT "
              + LakeTables.selectList(table)
              + " FROM "
              + Lake.readParquet(run)
              + ") TO "
              + Lake.literal(temp.toString())
              + " (FORMAT parquet)");
      LakeDirectories.moveIntoPlace(temp, target);
      return true;
    } catch (SQLException e) {
      if (String.valueOf(e.getMessage()).contains(FILE_GONE)) {
        return false;
      }
      throw e;
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** Deletes superseded files whose widest container is older than the grace period. */
  private static int deleteSuperseded(
      LakeSnapshot snapshot, Settings settings, Predicate<LakePartition> owned, Instant now) {
    int deleted = 0;
    for (LakeFile file : snapshot.superseded()) {
      if (!owned.test(file.partition())) {
        continue;
      }
      for (LakeFile container : snapshot.files(file.table())) {
        if (container.partition().equals(file.partition())
            && file.within(container)
            && container.modified().plus(settings.grace()).isBefore(now)) {
          try {
            if (Files.deleteIfExists(file.path())) {
              deleted++;
            }
          } catch (IOException e) {
            throw new UncheckedIOException("lake: cannot delete merged file " + file.path(), e);
          }
          break;
        }
      }
    }
    return deleted;
  }

  /** Whether the hour of {@code date=…/hour=…} has ended by {@code now}; unknown names: yes. */
  static boolean hourOver(Path hourDirectory, Instant now) {
    Path parent = hourDirectory.getParent();
    String name = (parent == null ? "" : parent.getFileName() + "/") + hourDirectory.getFileName();
    Matcher matcher = HOUR.matcher(name);
    if (!matcher.matches()) {
      return true;
    }
    Instant end =
        LocalDate.parse(matcher.group(1))
            .atStartOfDay(ZoneOffset.UTC)
            .plusHours(Integer.parseInt(matcher.group(2)) + 1L)
            .toInstant();
    return !end.isAfter(now);
  }
}
