package dev.tokentrace.simulator.live;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.tokentrace.simulator.output.Api;
import dev.tokentrace.simulator.pd.PdLive;
import dev.tokentrace.simulator.pd.PdScenario;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code simulate --serve PORT --pd SCENARIO} (docs/formats/pd.md#live): the P/D proxy, live, an
 * OpenAI-compatible endpoint ({@code --api}'s path) in front of the simulated prefill and decode
 * servers of a {@link PdLive} model. Per request, as vLLM's NIXL example proxy: to a prefill server
 * (one token), then, when that answered, to a decode server whose tokens it streams back as SSE. It
 * forwards the client's {@code X-Request-Id} (else SGLang's body {@code rid}; else it makes one
 * up), so both servers name the request by the client's ID. The servers are in this process: the
 * hops between proxy and servers are method calls, not HTTP. Thread-safe; {@link #close()} stops
 * it.
 */
public final class PdProxyServer implements AutoCloseable {
  private static final String JSON = "application/json";
  private static final int MAX_BODY_BYTES = 16 << 20;

  private final HttpServer http;
  private final ExecutorService workers;
  private final PdLive model;

  private PdProxyServer(HttpServer http, ExecutorService workers, PdLive model) {
    this.http = http;
    this.workers = workers;
    this.model = model;
  }

  /**
   * Starts serving {@code api} on {@code address} (port 0: any free port) in front of {@code
   * scenario}'s servers, writing into {@code dir} with a KV transfer line every {@code
   * statsIntervalS} seconds.
   *
   * @throws UncheckedIOException naming the address or directory that failed
   */
  public static PdProxyServer start(
      InetSocketAddress address, Path dir, PdScenario scenario, Api api, long statsIntervalS) {
    return start(address, dir, scenario, api, statsIntervalS, "vllm");
  }

  /**
   * As {@link #start(InetSocketAddress, Path, PdScenario, Api, long)}, the servers writing {@code
   * engine}'s formats ({@code vllm} or {@code sglang}, {@link PdLive#start(PdScenario, Path, long,
   * String)}).
   */
  public static PdProxyServer start(
      InetSocketAddress address,
      Path dir,
      PdScenario scenario,
      Api api,
      long statsIntervalS,
      String engine) {
    requireNonNull(address, "address is null");
    PdLive model = PdLive.start(scenario, dir, statsIntervalS, engine);
    HttpServer http;
    try {
      http = HttpServer.create(address, 1024);
    } catch (IOException e) {
      model.close();
      throw new UncheckedIOException("cannot listen on " + address, e);
    }
    ExecutorService workers = Executors.newCachedThreadPool(new Workers());
    http.setExecutor(workers);
    http.createContext("/v1/", new Handler(model, api));
    http.createContext(
        ServerInfo.HEALTH,
        exchange -> {
          try (exchange) {
            Replies.send(exchange, 200, JSON, new byte[0]);
          }
        });
    http.start();
    return new PdProxyServer(http, workers, model);
  }

  /** The port it listens on. */
  public int port() {
    return http.getAddress().getPort();
  }

  /** Stops accepting, ends the streams in flight and closes the servers' files. */
  @Override
  public void close() {
    http.stop(0);
    workers.shutdownNow();
    model.close();
  }

  private static final class Handler implements HttpHandler {
    private final PdLive model;
    private final Api api;

    Handler(PdLive model, Api api) {
      this.model = model;
      this.api = api;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
      try (exchange) {
        if (!"POST".equals(exchange.getRequestMethod())) {
          error(exchange, 405, "method not allowed: use POST");
          return;
        }
        if (!api.path().equals(exchange.getRequestURI().getPath())) {
          error(exchange, 404, "this simulated proxy serves " + api.path() + " (--api)");
          return;
        }
        CompletionRequest request;
        try {
          request = CompletionRequest.parse(body(exchange), api == Api.CHAT);
        } catch (IllegalArgumentException e) {
          error(exchange, 400, e.getMessage());
          return;
        }
        String header = exchange.getRequestHeaders().getFirst("X-Request-Id");
        String id = header != null && !header.isBlank() ? header.strip() : request.rid();
        if (id == null) {
          id = UUID.randomUUID().toString(); // as the NIXL example proxy names every request
        } else if (!CompletionHandler.ID.matcher(id).matches()) {
          error(exchange, 400, "request id must match " + CompletionHandler.ID.pattern());
          return;
        }
        exchange.getResponseHeaders().set("X-Request-Id", id);
        try {
          serve(exchange, request, id);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    private void serve(HttpExchange exchange, CompletionRequest request, String id)
        throws IOException, InterruptedException {
      // vLLM's name of a request with X-Request-Id (docs/formats/vllm.md#request-ids)
      String serverId = api == Api.CHAT ? "chatcmpl-" + id : "cmpl-" + id + "-0";
      PdLive.Prefill prefill = model.admitPrefill(id, request.promptTokens());
      model.sleepUntil(prefill.firstTokenUs());
      model.prefillDone(prefill, serverId);
      PdLive.Decode decode = model.admitDecode(prefill, request.maxTokens());
      SseChunks chunks = new SseChunks(api, (api == Api.CHAT ? "chatcmpl-" : "cmpl-") + id);
      boolean exported = false;
      try {
        if (request.stream()) {
          exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
          exchange.getResponseHeaders().set("Cache-Control", "no-cache");
          exchange.sendResponseHeaders(200, 0);
          OutputStream out = exchange.getResponseBody();
          if (api == Api.CHAT) {
            send(out, chunks.role());
          }
          for (int k = 1; k <= decode.outputTokens(); k++) {
            model.sleepUntil(decode.tokenUs(k));
            send(out, chunks.token(k));
          }
          // the decode server's span is exported as its request ends, before the client can
          // have the whole answer (and write its row)
          model.decodeDone(decode, serverId);
          exported = true;
          send(out, chunks.finish());
          if (request.includeUsage()) {
            send(out, chunks.usage(request.promptTokens(), decode.outputTokens()));
          }
          send(out, "data: [DONE]\n\n");
        } else {
          model.sleepUntil(decode.lastTokenUs());
          model.decodeDone(decode, serverId);
          exported = true;
          Replies.send(
              exchange,
              200,
              JSON,
              chunks
                  .whole(request.promptTokens(), decode.outputTokens())
                  .getBytes(StandardCharsets.UTF_8));
        }
      } finally {
        if (!exported) {
          // the decode server runs the request to its end even when the client went away
          model.sleepUntil(decode.lastTokenUs());
          model.decodeDone(decode, serverId);
        }
      }
    }

    private static void send(OutputStream out, String event) throws IOException {
      out.write(event.getBytes(StandardCharsets.UTF_8));
      out.flush();
    }

    private static byte[] body(HttpExchange exchange) throws IOException {
      try (InputStream in = exchange.getRequestBody()) {
        byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
        if (body.length > MAX_BODY_BYTES) {
          throw new IllegalArgumentException("body larger than " + MAX_BODY_BYTES + " bytes");
        }
        return body;
      }
    }

    private static void error(HttpExchange exchange, int status, String message)
        throws IOException {
      Replies.send(
          exchange,
          status,
          JSON,
          SseChunks.error(status, message).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Daemon threads, so a proxy that was not closed does not keep a JVM alive. */
  private static final class Workers implements java.util.concurrent.ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task, "tokentrace-pd-proxy-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    }
  }
}
