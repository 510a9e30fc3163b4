package dev.tokentrace.simulator;

/**
 * Receives the model's facts in time order. Writers implement it; every method may throw {@link
 * java.io.UncheckedIOException}, which ends the run.
 */
public interface SimObserver {
  /** Time is about to move to {@code nowUs}; the state seen until now held since the last call. */
  default void advance(long nowUs, ServerView server) {}

  /** A phase (concurrency level) starts. */
  default void phaseStarted(int phase, int concurrency, long nowUs) {}

  /** An attempt reached the server and joined the scheduler queue. */
  default void serverArrival(RequestView request, ServerView server) {}

  /** A step's batch was formed and its forward pass starts. */
  default void stepStarted(StepView step, ServerView server) {}

  /** A request was preempted while a batch was formed (its KV cache freed, queued again). */
  default void preempted(RequestView request, ServerView server) {}

  /** A request produced its last token; called before {@link #stepFinished}. */
  default void serverFinished(RequestView request, ServerView server) {}

  /** A step ended and its results were applied. */
  default void stepFinished(StepView step, ServerView server) {}

  /** The server aborted an attempt after the client disconnected. */
  default void serverAborted(RequestView request, ServerView server) {}

  /** The client is done with an attempt: completed, or gave up (then maybe retried). */
  default void clientDone(RequestView request) {}

  /** The run is over. */
  default void finished(ServerView server) {}
}
