package dev.tokentrace.app;

import org.jdbi.v3.core.Handle;

/**
 * Work done in the transaction of an attribution that recomputed every request, after its rows and
 * its run are written: the one hook by which the report's results are stored with the attribution
 * (docs/design.md#stored-report-results). An engine that does not recompute every request (an
 * incremental round) does not call it.
 */
@FunctionalInterface
public interface AfterAttribution {
  /** Nothing to do. */
  AfterAttribution NONE = (handle, runId) -> 0;

  /**
   * Runs on the attribution's handle; {@code runId} is the run just recorded. Returns how many
   * results it stored.
   */
  int accept(Handle handle, String runId);
}
