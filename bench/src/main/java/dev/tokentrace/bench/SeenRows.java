package dev.tokentrace.bench;

import java.time.Duration;

/** A reader of the rows the pipeline stored, noting when each line's row was first seen. */
interface SeenRows extends AutoCloseable {
  void start();

  /** Rows seen so far. */
  long seen();

  /** Waits until {@code rows} rows were seen. */
  void awaitSeen(long rows, Duration timeout) throws Exception;
}
