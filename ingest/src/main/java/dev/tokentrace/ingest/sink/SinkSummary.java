package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;

/**
 * What a sink run wrote: rows per event table (keyed by table name, every table present), reject
 * rows, records that were not valid events ({@code undecodable}, written to {@code rejects} too),
 * committed batches and the run's wall time.
 */
public record SinkSummary(
    Map<String, Long> eventRows,
    long rejectRows,
    long undecodable,
    long batches,
    Duration elapsed) {

  public SinkSummary {
    requireNonNull(eventRows, "eventRows is null");
    requireNonNull(elapsed, "elapsed is null");
    eventRows = Map.copyOf(eventRows);
  }

  /** Rows written to all event tables. */
  public long eventsWritten() {
    long total = 0;
    for (long rows : eventRows.values()) {
      total += rows;
    }
    return total;
  }

  /** Records consumed and written: events plus rejects. */
  public long records() {
    return eventsWritten() + rejectRows;
  }

  /** {@code events=N rejects=N batches=N in N ms}. */
  public String describe() {
    return "events="
        + eventsWritten()
        + " rejects="
        + rejectRows
        + " batches="
        + batches
        + " in "
        + elapsed.toMillis()
        + " ms";
  }
}
