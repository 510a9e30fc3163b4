package dev.tokentrace.simulator.live;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;

/** The simulated server's whole (not streamed) HTTP answers: status, type, body of known length. */
final class Replies {
  private Replies() {}

  /** Sends {@code body} with {@code status} and {@code contentType}, and ends the body. */
  static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }
}
