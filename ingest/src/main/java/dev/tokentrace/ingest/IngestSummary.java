package dev.tokentrace.ingest;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.sink.SinkSummary;
import java.time.Duration;

/** What {@link Ingest#run} did: the shipping side, the DuckDB side and the total wall time. */
public record IngestSummary(ShipSummary ship, SinkSummary sink, Duration elapsed) {
  public IngestSummary {
    requireNonNull(ship, "ship is null");
    requireNonNull(sink, "sink is null");
    requireNonNull(elapsed, "elapsed is null");
  }

  public long lines() {
    return ship.counts().lines();
  }

  /** Lines that gave at least one event. */
  public long parsed() {
    return ship.counts().parsed();
  }

  public long events() {
    return ship.counts().events();
  }

  public long ignored() {
    return ship.counts().ignored();
  }

  public long rejected() {
    return ship.counts().rejected();
  }

  public long eventsWritten() {
    return sink.eventsWritten();
  }

  public long rejectsWritten() {
    return sink.rejectRows();
  }

  /** {@code files=N -> events=N rejects=N in N ms}. */
  public String describe() {
    return ship.describe()
        + " -> events="
        + eventsWritten()
        + " rejects="
        + rejectsWritten()
        + " in "
        + elapsed.toMillis()
        + " ms";
  }
}
