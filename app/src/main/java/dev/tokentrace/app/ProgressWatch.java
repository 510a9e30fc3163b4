package dev.tokentrace.app;

import dev.tokentrace.ingest.follow.FollowProgress;
import dev.tokentrace.ingest.sink.SinkProgress;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * What runs beside a following use case while it runs: the command line's status lines. It is given
 * what to read, a follower's progress, a sink's, or both ({@code ingest --follow}).
 */
@FunctionalInterface
public interface ProgressWatch {
  /** Watches nothing. */
  ProgressWatch NONE = (shipped, sunk) -> () -> {};

  /**
   * Starts watching; the handle is closed when the work ends.
   *
   * @param shipped a follower's progress, or null when the run ships nothing
   * @param sunk a sink's progress, or null when the run sinks nothing
   */
  Started start(@Nullable Supplier<FollowProgress> shipped, @Nullable Supplier<SinkProgress> sunk);

  /** A started watch. */
  @FunctionalInterface
  interface Started extends AutoCloseable {
    @Override
    void close();
  }
}
