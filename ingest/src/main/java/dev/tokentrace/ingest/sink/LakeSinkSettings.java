package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.lake.LakeCompactor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Settings of the lake sink (docs/storage.md#lake-commit-protocol). Immutable.
 *
 * @param lake {@value #LAKE_DOC}
 * @param group {@value #GROUP_DOC}
 * @param flushInterval {@value #FLUSH_INTERVAL_DOC}
 * @param flushRows {@value #FLUSH_ROWS_DOC}
 * @param compactInterval {@value #COMPACT_INTERVAL_DOC}
 * @param compaction how files are merged
 * @param memoryLimit DuckDB memory_limit of the staging database
 * @param threads DuckDB threads
 * @param pollTimeout longest wait of one Kafka poll
 * @param stallTimeout when draining, fail after this long without a record
 */
public record LakeSinkSettings(
    Path lake,
    String group,
    Duration flushInterval,
    long flushRows,
    Duration compactInterval,
    LakeCompactor.Settings compaction,
    String memoryLimit,
    int threads,
    Duration pollTimeout,
    Duration stallTimeout) {
  public static final String LAKE_DOC =
      "the Parquet lake directory to write (created if missing or empty): one folder of Parquet"
          + " files per table that any number of readers may query while sinks write";
  public static final String DEFAULT_GROUP = "tokentrace-lake";
  public static final String GROUP_DOC =
      "Kafka consumer group: sinks of one group share the topics' partitions and write one lake;"
          + " a lake belongs to one group";
  public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofSeconds(1);
  public static final String FLUSH_INTERVAL_DOC =
      "how often staged rows are written and committed as Parquet files: how fresh the lake is";
  public static final long DEFAULT_FLUSH_ROWS = 200_000;
  public static final String FLUSH_ROWS_DOC =
      "also flush when this many rows are staged (bounds memory when working off a backlog)";
  public static final Duration DEFAULT_COMPACT_INTERVAL = Duration.ofMinutes(1);
  public static final String COMPACT_INTERVAL_DOC =
      "how often the sink merges the small files of the partitions it owns; 0s for never";

  private static final Pattern GROUP = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

  public LakeSinkSettings {
    requireNonNull(lake, "lake is null");
    requireNonNull(group, "group is null");
    requireNonNull(flushInterval, "flushInterval is null");
    requireNonNull(compactInterval, "compactInterval is null");
    requireNonNull(compaction, "compaction is null");
    requireNonNull(memoryLimit, "memoryLimit is null");
    requireNonNull(pollTimeout, "pollTimeout is null");
    requireNonNull(stallTimeout, "stallTimeout is null");
    if (!GROUP.matcher(group).matches()) {
      throw new IllegalArgumentException(
          "group must be 1-200 letters, digits, '.', '_' or '-': '" + group + "'");
    }
    if (flushInterval.isNegative() || flushInterval.isZero()) {
      throw new IllegalArgumentException("flush interval must be > 0: " + flushInterval);
    }
    if (flushRows < 1) {
      throw new IllegalArgumentException("flush rows must be >= 1: " + flushRows);
    }
    if (compactInterval.isNegative()) {
      throw new IllegalArgumentException("compact interval must be >= 0: " + compactInterval);
    }
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be >= 1: " + threads);
    }
  }

  /** Defaults for everything but the directory. */
  public static LakeSinkSettings defaults(Path lake) {
    return new LakeSinkSettings(
        lake,
        DEFAULT_GROUP,
        DEFAULT_FLUSH_INTERVAL,
        DEFAULT_FLUSH_ROWS,
        DEFAULT_COMPACT_INTERVAL,
        LakeCompactor.Settings.defaults(),
        SinkSettings.DEFAULT_MEMORY_LIMIT,
        SinkSettings.DEFAULT_THREADS,
        SinkSettings.DEFAULT_POLL_TIMEOUT,
        SinkSettings.DEFAULT_STALL_TIMEOUT);
  }
}
