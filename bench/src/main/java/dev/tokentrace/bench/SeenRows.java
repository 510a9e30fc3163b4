package dev.tokentrace.bench;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/** A reader of the rows the pipeline stored, noting when each line's row was first seen. */
interface SeenRows extends AutoCloseable {
  void start();

  /** Rows seen so far. */
  long seen();

  /** What ended the reader's thread, or null while it reads. */
  @Nullable Exception failure();

  /** Waits until {@code rows} rows were seen; throws what ended the reader, or on timeout. */
  default void awaitSeen(long rows, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (seen() < rows) {
      Exception failure = failure();
      if (failure != null) {
        throw failure;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            getClass().getSimpleName() + " saw " + seen() + " of " + rows + " rows");
      }
      Thread.sleep(10);
    }
  }
}
