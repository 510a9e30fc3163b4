package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.tail.ParseCounts;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link Follower} run shipped, counting committed lines only (what a rewind shipped again
 * is counted once).
 *
 * @param files files followed at the end
 * @param problems files that failed or cannot be followed ({@code path: reason})
 * @param counts committed lines and what became of them
 * @param records events and rejections committed
 * @param transactions transactions committed
 * @param rewinds transactions that failed and were shipped again from the checkpoint
 * @param uncommitted true when the last lines could not be committed before the stop (Kafka was
 *     unreachable): they are shipped again from the checkpoint on the next run
 * @param elapsed wall time of the run
 */
public record FollowSummary(
    int files,
    List<String> problems,
    ParseCounts counts,
    long records,
    long transactions,
    long rewinds,
    boolean uncommitted,
    Duration elapsed) {
  public FollowSummary {
    problems = List.copyOf(requireNonNull(problems, "problems is null"));
    requireNonNull(counts, "counts is null");
    requireNonNull(elapsed, "elapsed is null");
  }

  /** {@code files=N lines=N parsed=N ignored=N rejected=N records=N transactions=N}. */
  public String describe() {
    return "files="
        + files
        + " lines="
        + counts.lines()
        + " "
        + counts.summary()
        + " records="
        + records
        + " transactions="
        + transactions
        + (rewinds > 0 ? " rewinds=" + rewinds : "")
        + " in "
        + elapsed.toMillis()
        + " ms";
  }
}
