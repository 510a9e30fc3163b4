package dev.tokentrace.parse;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A parser in front of an engine's log parser that claims some lines for itself (saved scrapes, a
 * P/D proxy's access log) and leaves the log parser everything else: its clock, its user-text
 * state, its continuation rules and its checkpoint state (docs/formats/metrics.md#saved-scrapes,
 * docs/formats/pd.md#proxy-access-log). Not thread-safe, like the parser it holds.
 */
abstract class RoutingParser implements LineParser, CollectorClock {
  /** The engine's log parser, which every line no subclass claims goes to. */
  protected final LineParser log;

  RoutingParser(LineParser log) {
    this.log = log;
  }

  /** Passes a collector's time on to the log parser, if it dates lines by it. */
  @Override
  public void collectorTime(@Nullable Instant ts) {
    if (log instanceof CollectorClock clock) {
      clock.collectorTime(ts);
    }
  }

  @Override
  public void wrapperLevel(@Nullable String level) {
    if (log instanceof CollectorClock clock) {
      clock.wrapperLevel(level);
    }
  }

  @Override
  public void finish(ParseOutput sink) {
    log.finish(sink);
  }

  @Override
  public int continuationStart(String line) {
    return log.continuationStart(line);
  }

  @Override
  public boolean insideUserText() {
    return log.insideUserText();
  }

  @Override
  public @Nullable String state() {
    return log.state();
  }

  @Override
  public void resume(String state) {
    log.resume(state);
  }
}
