package dev.tokentrace.parse;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;

/**
 * Reads the lines of a P/D proxy's access log ({@link ProxyLogLine}) given to {@code ingest},
 * {@code ship} or a follower with the servers' engine, and passes every other line to the engine's
 * parser: the proxy's lines become {@code proxy_request} events that travel as the servers' do
 * (docs/formats/pd.md#proxy-access-log). Not thread-safe, like the parser it holds.
 */
final class ProxyLogRouter extends RoutingParser {
  private final Engine engine;
  private final String instance;

  ProxyLogRouter(Engine engine, LineParser log, ParseSettings settings) {
    super(log);
    this.engine = engine;
    this.instance = settings.instance();
  }

  @Override
  public void parse(String line, SourcePosition position, ParseOutput sink) {
    if (log.insideUserText() || !ProxyLogLine.claims(line)) {
      log.parse(line, position, sink);
      return;
    }
    try {
      sink.event(ProxyLogLine.parse(line, engine, instance, position));
    } catch (IllegalArgumentException e) {
      sink.rejected(Rejection.of(position, engine, ProxyLogLine.REASON + e.getMessage(), line));
    }
  }
}
