package dev.tokentrace.parse;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Reads the lines of a P/D proxy's access log ({@link ProxyLogLine}) given to {@code ingest},
 * {@code ship} or a follower with the servers' engine, and passes every other line to the engine's
 * parser: the proxy's lines become {@code proxy_request} events that travel as the servers' do
 * (docs/formats/pd.md#proxy-access-log). Not thread-safe, like the parser it holds.
 */
final class ProxyLogRouter implements LineParser, CollectorClock {
  private final Engine engine;
  private final String instance;
  private final LineParser log;

  ProxyLogRouter(Engine engine, LineParser log, ParseSettings settings) {
    this.engine = engine;
    this.instance = settings.instance();
    this.log = log;
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
