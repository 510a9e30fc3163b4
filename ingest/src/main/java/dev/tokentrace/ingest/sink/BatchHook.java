package dev.tokentrace.ingest.sink;

import java.sql.SQLException;

/**
 * Test hook around a sink batch's commit: lets a test stop the sink after some batches or fail a
 * batch after its Appenders were flushed and before its commit. Production uses {@link #NONE}.
 */
interface BatchHook {
  BatchHook NONE = new BatchHook() {};

  /** After the batch's rows and offsets are flushed into the open transaction. */
  default void beforeCommit(long batch) throws SQLException {}

  /** After the batch committed. */
  default void afterCommit(long batch) {}
}
