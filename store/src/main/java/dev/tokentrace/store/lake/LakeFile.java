package dev.tokentrace.store.lake;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One data file of the lake: {@code <table>/date=YYYY-MM-DD/hour=HH/<topic>-<partition>-<first>-
 * <end>.parquet}, holding exactly the rows of {@code table} that came from the records of {@code
 * partition} with offsets in [{@code first}, {@code end}) (docs/storage.md#lake-layout). The date
 * and hour are when the sink wrote the rows (UTC), not the events' own time.
 *
 * @param table the table name (the first directory)
 * @param partition the Kafka partition its rows came from
 * @param first the consumer position before the file's records (inclusive)
 * @param end the consumer position after them (exclusive): the next offset to read
 * @param path the absolute file
 * @param bytes the file's size
 * @param modified the file's modification time
 */
public record LakeFile(
    String table,
    LakePartition partition,
    long first,
    long end,
    Path path,
    long bytes,
    Instant modified) {
  /** Offsets are zero-padded so that names sort in offset order. */
  private static final String OFFSET_FORMAT = "%020d";

  private static final Pattern NAME =
      Pattern.compile(
          "(?<topic>[a-zA-Z0-9._-]+)-(?<part>\\d+)-(?<first>\\d{20})-(?<end>\\d{20})"
              + "(?:\\.[a-z0-9]{1,16})?\\.parquet");

  public LakeFile {
    requireNonNull(table, "table is null");
    requireNonNull(partition, "partition is null");
    requireNonNull(path, "path is null");
    requireNonNull(modified, "modified is null");
    if (first < 0 || end <= first) {
      throw new IllegalArgumentException("bad offset range [" + first + ", " + end + ")");
    }
  }

  /**
   * The file name of a range written by the writer {@code tag}: {@code
   * <topic>-<partition>-<first>-<end>.<tag>.parquet}. The tag keeps two writers that consumed the
   * same range (one of them fenced, docs/storage.md#lake-commit-protocol) from replacing or
   * deleting each other's file; readers treat two files of one range like any file within another.
   */
  public static String fileName(LakePartition partition, long first, long end, String tag) {
    return partition
        + "-"
        + String.format(OFFSET_FORMAT, first)
        + "-"
        + String.format(OFFSET_FORMAT, end)
        + "."
        + tag
        + ".parquet";
  }

  /** {@code date=YYYY-MM-DD/hour=HH} of an instant (UTC): the Hive-style time partition. */
  public static String hourDirectory(Instant written) {
    ZonedDateTime utc = written.atZone(ZoneOffset.UTC);
    return String.format(
        "date=%04d-%02d-%02d/hour=%02d",
        utc.getYear(), utc.getMonthValue(), utc.getDayOfMonth(), utc.getHour());
  }

  /**
   * The file a name stands for, or null when the name is not a lake data file name.
   *
   * @param table the table directory it was found under
   */
  static @Nullable LakeFile parse(String table, Path path, long bytes, Instant modified) {
    Matcher name = NAME.matcher(path.getFileName().toString());
    if (!name.matches()) {
      return null;
    }
    try {
      long first = Long.parseLong(name.group("first"));
      long end = Long.parseLong(name.group("end"));
      if (end <= first) {
        return null;
      }
      LakePartition partition =
          new LakePartition(name.group("topic"), Integer.parseInt(name.group("part")));
      return new LakeFile(table, partition, first, end, path, bytes, modified);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Whether this file's range lies within {@code other}'s. */
  public boolean within(LakeFile other) {
    return first >= other.first && end <= other.end;
  }

  /** The hour directory the file lies in (its parent). */
  Path hourDirectory() {
    return requireNonNull(path.getParent(), "a lake file has a parent directory");
  }

  @Override
  public String toString() {
    return table + "/" + partition + "[" + first + ", " + end + ")";
  }
}
