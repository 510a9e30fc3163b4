package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A hostile {@code /metrics} endpoint on 127.0.0.1 for the abuse suite (docs/live.md#abuse-suite):
 * a raw socket server that answers every request with one of the responses an attacker or a broken
 * exporter sends. Writing stops when the client closes the connection or the endpoint is closed.
 */
final class HostileEndpoint implements AutoCloseable {
  /** What the endpoint answers. */
  enum Mode {
    /** HTTP 200 without a length, then sample lines for ever. */
    ENDLESS_BODY,
    /** HTTP 200 announcing 1 GiB, then sample lines up to it. */
    HUGE_BODY,
    /** HTTP 200, then one line that never ends. */
    ENDLESS_LINE,
    /** HTTP 200, then one sample line a second for ever. */
    TRICKLE
  }

  private static final byte[] SAMPLE =
      "vllm:num_requests_running{model_name=\"m\"} 1\n".getBytes(US_ASCII);

  private final ServerSocket server;
  private final Mode mode;
  private final AtomicInteger requests = new AtomicInteger();
  private final List<Socket> sockets = new ArrayList<>();
  private final Thread acceptor;

  private HostileEndpoint(Mode mode) throws IOException {
    this.mode = mode;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    this.acceptor = new Thread(this::accept, "hostile-" + mode);
    acceptor.setDaemon(true);
    acceptor.start();
  }

  static HostileEndpoint start(Mode mode) throws IOException {
    return new HostileEndpoint(mode);
  }

  String url() {
    return "http://127.0.0.1:" + server.getLocalPort() + "/metrics";
  }

  /** Requests whose headers arrived so far. */
  int requests() {
    return requests.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        synchronized (sockets) {
          sockets.add(socket);
        }
        Thread answer = new Thread(() -> answer(socket), "hostile-answer");
        answer.setDaemon(true);
        answer.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void answer(Socket socket) {
    try (socket;
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream()) {
      // the request's headers end with an empty line
      int matched = 0;
      byte[] end = "\r\n\r\n".getBytes(US_ASCII);
      while (matched < end.length) {
        int b = in.read();
        if (b < 0) {
          return;
        }
        matched = b == end[matched] ? matched + 1 : (b == end[0] ? 1 : 0);
      }
      requests.incrementAndGet();
      String length = mode == Mode.HUGE_BODY ? "Content-Length: 1073741824\r\n" : "";
      out.write(
          ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n" + length + "Connection: close\r\n\r\n")
              .getBytes(US_ASCII));
      byte[] block = new byte[64 * 1024];
      switch (mode) {
        case ENDLESS_BODY, HUGE_BODY -> {
          for (int i = 0; i < block.length; i++) {
            block[i] = SAMPLE[i % SAMPLE.length];
          }
          long left = mode == Mode.HUGE_BODY ? 1L << 30 : Long.MAX_VALUE;
          while (left > 0 && !socket.isClosed()) {
            int n = (int) Math.min(block.length, left);
            out.write(block, 0, n);
            left -= n;
          }
        }
        case ENDLESS_LINE -> {
          java.util.Arrays.fill(block, (byte) 'a');
          while (!socket.isClosed()) {
            out.write(block);
          }
        }
        case TRICKLE -> {
          while (!socket.isClosed()) {
            out.write(SAMPLE);
            out.flush();
            Thread.sleep(1000);
          }
        }
      }
    } catch (IOException e) {
      // the client closed the connection: what the limits are for
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    synchronized (sockets) {
      for (Socket socket : sockets) {
        socket.close();
      }
    }
  }
}
