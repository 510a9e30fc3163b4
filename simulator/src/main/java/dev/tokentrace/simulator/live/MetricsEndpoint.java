package dev.tokentrace.simulator.live;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.tokentrace.event.Engine;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import dev.tokentrace.simulator.output.MetricsExposition;
import java.io.IOException;

/**
 * The simulated server's {@code GET /metrics}: the live engine's {@link MetricsExposition} (the
 * same text {@code simulate --metrics-scrape-s} saves), served over HTTP. Thread-safe: the
 * exposition holds its own lock.
 */
final class MetricsEndpoint implements SimObserver, HttpHandler {
  /** Prometheus text format 0.0.4, as the engines serve it. */
  static final String CONTENT_TYPE = MetricsExposition.CONTENT_TYPE;

  private final MetricsExposition exposition;

  MetricsEndpoint(Engine engine) {
    this.exposition = new MetricsExposition(engine);
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    exposition.advance(nowUs, server);
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    exposition.stepFinished(step, server);
  }

  @Override
  public void serverFinished(RequestView request, ServerView server) {
    exposition.serverFinished(request, server);
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      Replies.send(exchange, 200, CONTENT_TYPE, text().getBytes(UTF_8));
    }
  }

  /** The exposition text of the current state. */
  String text() {
    return exposition.text();
  }
}
