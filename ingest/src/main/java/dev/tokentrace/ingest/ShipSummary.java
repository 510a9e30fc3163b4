package dev.tokentrace.ingest;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.tail.ParseCounts;
import java.time.Duration;
import java.util.List;

/**
 * What a {@code ship} did: files read, files that could not be read ({@code path: reason}, the
 * other files were still shipped), what became of the lines, records Kafka acknowledged, wall time,
 * and notes on files resumed where an interrupted run stopped ({@code path: resumed from line N
 * ...}).
 */
public record ShipSummary(
    int files,
    List<String> failedFiles,
    ParseCounts counts,
    long records,
    Duration elapsed,
    List<String> resumed) {
  public ShipSummary {
    requireNonNull(failedFiles, "failedFiles is null");
    requireNonNull(counts, "counts is null");
    requireNonNull(elapsed, "elapsed is null");
    requireNonNull(resumed, "resumed is null");
    failedFiles = List.copyOf(failedFiles);
    resumed = List.copyOf(resumed);
  }

  /** A summary without resumed files. */
  public ShipSummary(
      int files, List<String> failedFiles, ParseCounts counts, long records, Duration elapsed) {
    this(files, failedFiles, counts, records, elapsed, List.of());
  }

  /**
   * {@code files=N}: the line counts are the commands' one summary line ({@code lines=N parsed=N
   * ...}, docs/design.md#bad-input), printed once.
   */
  public String describe() {
    return "files=" + files;
  }
}
