package dev.tokentrace.ingest.tail;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientRejection;
import dev.tokentrace.clients.ClientTiming;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.Rejection;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Holds a followed source's output back until its parser has reported every line it was given, so
 * that a checkpoint always falls where nothing is half-shipped. A parser reports each line at least
 * once (event, ignored or rejected), but a grouped record is reported late: a vLLM warning with its
 * traceback is one notice, emitted when the next record starts (LineParser's contract). While such
 * a line is unreported, a checkpoint after it would lose the record on a restart, and one before it
 * would ship the later lines' events twice. So the gate passes output on only at quiescent points,
 * when no line is pending, and the caller checkpoints only there: all events of the lines before
 * the checkpoint are released and none of the lines after it.
 *
 * <p>Usage per line: {@link #beginLine}, feed the parser (which reports into this sink), {@link
 * #endLine}. Most lines are reported while they are parsed and pass straight through with no
 * bookkeeping beyond a flag. Counts of released lines and their outcomes are kept here, since only
 * they are final: each line counts once, by what its first report(s) said (an event makes it
 * parsed, else a rejection rejected, else it is ignored; docs/design.md#bad-input). Not
 * thread-safe.
 */
public final class ReleaseGate implements TailOutput {
  private final TailOutput downstream;
  private final List<Object> held = new ArrayList<>();
  private final TreeSet<Long> pending = new TreeSet<>();
  private long current;
  private boolean currentReported;
  private boolean currentEvent;
  private boolean currentRejected;
  private long heldLines;
  private long heldEvents;
  private long heldParsed;
  private long heldRejected;
  private long releasedLines;
  private long releasedEvents;
  private long releasedParsed;
  private long releasedRejected;

  /**
   * @param released counts of what was released before (a resumed source's committed counts)
   */
  public ReleaseGate(TailOutput downstream, ParseCounts released) {
    this.downstream = requireNonNull(downstream, "downstream is null");
    releasedLines = released.lines();
    releasedEvents = released.events();
    releasedParsed = released.parsed();
    releasedRejected = released.rejected();
  }

  /** The parser is about to be given line {@code number}. */
  public void beginLine(long number) {
    current = number;
    currentReported = false;
    currentEvent = false;
    currentRejected = false;
  }

  /**
   * The parser is done with the current line.
   *
   * @return true when every line so far is reported and all output has been released: a checkpoint
   *     may be placed after this line
   */
  public boolean endLine() {
    if (!currentReported) {
      pending.add(current);
    } else if (currentEvent) {
      heldParsed++;
    } else if (currentRejected) {
      heldRejected++;
    }
    current = 0;
    heldLines++;
    if (pending.isEmpty()) {
      release();
      return true;
    }
    return false;
  }

  /** The parser was finished (end of the source, or a group closed early): release everything. */
  public void finished() {
    pending.clear();
    release();
  }

  /** Lines parsed but not yet reported by the parser. */
  public int pendingLines() {
    return pending.size();
  }

  /** Number of the oldest unreported line, or 0 when none is. */
  public long oldestPending() {
    return pending.isEmpty() ? 0 : pending.first();
  }

  /** Outputs held back (events and rejections). */
  public int held() {
    return held.size();
  }

  /** Lines released so far, with their events, ignored lines and rejections. */
  public ParseCounts released() {
    return new ParseCounts(
        releasedLines,
        releasedParsed,
        releasedLines - releasedParsed - releasedRejected,
        releasedRejected,
        releasedEvents);
  }

  @Override
  public void event(EngineEvent event) {
    reported(event.source(), Outcome.EVENT);
    heldEvents++;
    held.add(event);
  }

  @Override
  public void rejected(Rejection rejection, byte[] rawLine) {
    reported(rejection.position(), Outcome.REJECTED);
    held.add(new HeldRejection(rejection, rawLine));
  }

  @Override
  public void client(ClientTiming.Stored row) {
    reported(row.timing().source(), Outcome.EVENT);
    heldEvents++;
    held.add(row);
  }

  @Override
  public void clientRejected(ClientRejection rejection, byte[] rawLine) {
    reported(rejection.position(), Outcome.REJECTED);
    held.add(new HeldClientRejection(rejection, rawLine));
  }

  @Override
  public void ignored(SourcePosition position, String rule) {
    reported(position, Outcome.IGNORED);
  }

  /** What a report says of its line. */
  private enum Outcome {
    EVENT,
    REJECTED,
    IGNORED
  }

  /**
   * The current line collects every report; a line reported after later lines (a grouped record) is
   * counted by its first report.
   */
  private void reported(SourcePosition position, Outcome outcome) {
    long line = position.line();
    if (line == current) {
      currentReported = true;
      currentEvent |= outcome == Outcome.EVENT;
      currentRejected |= outcome == Outcome.REJECTED;
    } else if (!pending.isEmpty() && pending.remove(line)) {
      if (outcome == Outcome.EVENT) {
        heldParsed++;
      } else if (outcome == Outcome.REJECTED) {
        heldRejected++;
      }
    }
  }

  private void release() {
    for (Object output : held) {
      if (output instanceof EngineEvent) {
        downstream.event((EngineEvent) output);
      } else if (output instanceof ClientTiming.Stored row) {
        downstream.client(row);
      } else if (output instanceof HeldClientRejection rejection) {
        downstream.clientRejected(rejection.rejection(), rejection.rawLine());
      } else {
        HeldRejection rejection = (HeldRejection) output;
        downstream.rejected(rejection.rejection(), rejection.rawLine());
      }
    }
    held.clear();
    releasedLines += heldLines;
    releasedEvents += heldEvents;
    releasedParsed += heldParsed;
    releasedRejected += heldRejected;
    heldLines = 0;
    heldEvents = 0;
    heldParsed = 0;
    heldRejected = 0;
  }

  private record HeldRejection(Rejection rejection, byte[] rawLine) {}

  private record HeldClientRejection(ClientRejection rejection, byte[] rawLine) {}
}
