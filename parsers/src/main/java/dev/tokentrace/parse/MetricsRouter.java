package dev.tokentrace.parse;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.metrics.MetricsLineParser;

/**
 * Sends an engine's own {@code /metrics} text (a saved scrape, or scrape lines in a log) to the
 * metrics parser and everything else to the engine's log parser, so that {@code ingest}, {@code
 * ship} and {@code parse} read saved scrapes like logs (docs/formats/metrics.md#saved-scrapes). Not
 * thread-safe, like the parsers it holds.
 */
final class MetricsRouter extends RoutingParser {
  private final Engine engine;
  private final MetricsLineParser metrics;

  MetricsRouter(Engine engine, LineParser log, ParseSettings settings) {
    super(log);
    this.engine = engine;
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

  @Override
  public void finish(ParseOutput sink) {
    metrics.finish(sink);
    super.finish(sink);
  }
}
