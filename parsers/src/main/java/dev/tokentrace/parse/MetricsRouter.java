package dev.tokentrace.parse;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.metrics.MetricsLineParser;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Sends an engine's own {@code /metrics} text (a saved scrape, or scrape lines in a log) to the
 * metrics parser and everything else to the engine's log parser, so that {@code ingest}, {@code
 * ship} and {@code parse} read saved scrapes like logs (docs/formats/metrics.md#saved-scrapes). Not
 * thread-safe, like the parsers it holds.
 */
final class MetricsRouter implements LineParser, CollectorClock {
  private final Engine engine;
  private final LineParser log;
  private final MetricsLineParser metrics;

  MetricsRouter(Engine engine, LineParser log, ParseSettings settings) {
    this.engine = engine;
    this.log = log;
    this.metrics = new MetricsLineParser(engine, settings);
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput sink) {
    if (!log.insideUserText() && MetricsLineParser.claims(engine, line)) {
      metrics.parse(line, position, sink);
    } else {
      log.parse(line, position, sink);
    }
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
    metrics.finish(sink);
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
