package dev.tokentrace.ingest.follow;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.tail.ParseCounts;

/**
 * A snapshot of a running {@link Follower}, for status lines: what was shipped so far in this run
 * (lines released into transactions and what became of them), what is committed, how much of the
 * files is still unread, and whether it waits for Kafka. Immutable.
 *
 * @param nanoTime {@link System#nanoTime()} when it was taken, for rates
 * @param shipped lines shipped in this run (committed or in the open transaction)
 * @param committedRecords events and rejections committed in this run
 * @param lagBytes bytes of the followed files not read yet
 * @param files files followed (rotated ones still being read included)
 * @param problems paths that cannot be followed now
 * @param waitingForKafka true while the broker is unreachable and reading is paused
 * @param rewinds transactions that failed and were shipped again from the checkpoint
 */
public record FollowProgress(
    long nanoTime,
    ParseCounts shipped,
    long committedRecords,
    long lagBytes,
    int files,
    int problems,
    boolean waitingForKafka,
    long rewinds) {
  public FollowProgress {
    requireNonNull(shipped, "shipped is null");
  }

  static FollowProgress initial() {
    return new FollowProgress(System.nanoTime(), ParseCounts.ZERO, 0, 0, 0, 0, false, 0);
  }
}
