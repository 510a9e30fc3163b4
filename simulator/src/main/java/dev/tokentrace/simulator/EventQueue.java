package dev.tokentrace.simulator;

import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * Pending client and network events in time order; ties keep insertion order, which keeps runs
 * deterministic. Engine steps are not queued here (one is in flight at a time). Not thread-safe.
 */
final class EventQueue {
  enum Kind {
    PHASE_START,
    ISSUE,
    SERVER_ARRIVAL,
    CLIENT_DONE,
    CLIENT_TIMEOUT,
    SERVER_ABORT,
    RETRY
  }

  /** One pending event; {@code attempt} is null for phase starts and issues. */
  record Event(long timeUs, long seq, Kind kind, @Nullable Attempt attempt) {}

  private final PriorityQueue<Event> events =
      new PriorityQueue<>(
          (a, b) ->
              a.timeUs() != b.timeUs()
                  ? Long.compare(a.timeUs(), b.timeUs())
                  : Long.compare(a.seq(), b.seq()));
  private long seq;

  void add(long timeUs, Kind kind, @Nullable Attempt attempt) {
    events.add(new Event(timeUs, seq++, kind, attempt));
  }

  long nextTimeUs() {
    Event next = events.peek();
    return next == null ? Long.MAX_VALUE : next.timeUs();
  }

  Event poll() {
    Event next = events.poll();
    if (next == null) {
      throw new IllegalStateException("no pending event");
    }
    return next;
  }
}
