package dev.tokentrace.simulator.live;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.tokentrace.simulator.ClientSettings;
import dev.tokentrace.simulator.LiveEngine;
import dev.tokentrace.simulator.output.Api;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * One OpenAI-compatible request: checks it, hands it to the engine and streams its tokens as SSE
 * ({@code data:} chunks, then {@code data: [DONE]}), or answers once with the whole completion when
 * {@code stream} is false. The request ID is the {@code X-Request-Id} header, else SGLang's body
 * {@code rid}, else the server makes one up (as vLLM does). Runs on an HTTP worker thread.
 */
final class CompletionHandler implements HttpHandler {
  /** IDs the simulated server accepts, so they go into CSV, logs and JSON unescaped. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private static final String JSON = "application/json";
  private static final int MAX_BODY_BYTES = 16 << 20;
  private static final long POLL_MS = 1000;

  private final LiveEngine engine;
  private final Api api;
  private final int maxModelLen;
  private final long heartbeatMs;
  private final AtomicLong nonces;

  CompletionHandler(LiveEngine engine, Api api, int maxModelLen, ClientSettings client) {
    this.engine = engine;
    this.api = api;
    this.maxModelLen = maxModelLen;
    // the scenario's proxy heartbeat: an SSE comment while a response has not started
    this.heartbeatMs = Math.round(client.heartbeatS() * 1000);
    this.nonces = new AtomicLong(new SplittableRandom().nextLong());
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"POST".equals(exchange.getRequestMethod())) {
        error(exchange, 405, "method not allowed: use POST");
        return;
      }
      if (!api.path().equals(exchange.getRequestURI().getPath())) {
        error(exchange, 404, "this simulated server serves " + api.path() + " (--api)");
        return;
      }
      CompletionRequest request;
      try {
        request = CompletionRequest.parse(body(exchange), api == Api.CHAT);
      } catch (IllegalArgumentException e) {
        error(exchange, 400, e.getMessage());
        return;
      }
      if (request.promptTokens() + request.maxTokens() > maxModelLen) {
        error(
            exchange,
            400,
            "prompt ("
                + request.promptTokens()
                + " tokens) plus max_tokens ("
                + request.maxTokens()
                + ") exceed the model's context length ("
                + maxModelLen
                + ")");
        return;
      }
      String header = exchange.getRequestHeaders().getFirst("X-Request-Id");
      String id = header != null && !header.isBlank() ? header.strip() : request.rid();
      if (id != null && !ID.matcher(id).matches()) {
        error(exchange, 400, "request id must match " + ID.pattern());
        return;
      }
      serve(exchange, request, id);
    }
  }

  private void serve(HttpExchange exchange, CompletionRequest request, @Nullable String id)
      throws IOException {
    long nonce = nonces.getAndIncrement() * 0x9E3779B97F4A7C15L;
    String requestId = id != null ? id : Long.toHexString(nonce);
    Tokens tokens = new Tokens();
    LiveEngine.Ticket ticket =
        engine.submit(
            new LiveEngine.Submission(
                requestId, request.promptTokens(), request.maxTokens(), nonce),
            tokens);
    SseChunks chunks = new SseChunks(api, (api == Api.CHAT ? "chatcmpl-" : "cmpl-") + requestId);
    if (id != null) {
      // as vLLM with --enable-request-id-headers: clients that cannot tell which request a response
      // answers (wrk's Lua response()) read it here (docs/formats/gateways.md#wrk)
      exchange.getResponseHeaders().set("X-Request-Id", id);
    }
    try {
      if (request.stream()) {
        stream(exchange, request, tokens, chunks);
      } else {
        whole(exchange, request, tokens, chunks);
      }
    } catch (IOException e) {
      engine.abort(ticket); // the client went away: free the engine's slot, as vLLM does
      throw e;
    } catch (InterruptedException e) {
      engine.abort(ticket);
      Thread.currentThread().interrupt();
    }
  }

  private void stream(
      HttpExchange exchange, CompletionRequest request, Tokens tokens, SseChunks chunks)
      throws IOException, InterruptedException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    exchange.getResponseHeaders().set("Cache-Control", "no-cache");
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    if (api == Api.CHAT) {
      send(out, chunks.role()); // vLLM's first chat chunk: the role, empty content
    }
    int generated = 0;
    while (true) {
      Token token = tokens.next(generated == 0 && heartbeatMs > 0 ? heartbeatMs : POLL_MS);
      if (token == null) {
        if (engine.failure() != null) {
          return; // the engine died: end the stream without [DONE], as a crashed server does
        }
        if (generated == 0 && heartbeatMs > 0) {
          send(out, ": ping\n\n");
        }
        continue;
      }
      if (token.aborted()) {
        return;
      }
      generated = token.generated();
      send(out, chunks.token(generated));
      if (token.last()) {
        break;
      }
    }
    send(out, chunks.finish());
    if (request.includeUsage()) {
      send(out, chunks.usage(request.promptTokens(), generated));
    }
    send(out, "data: [DONE]\n\n");
  }

  private void whole(
      HttpExchange exchange, CompletionRequest request, Tokens tokens, SseChunks chunks)
      throws IOException, InterruptedException {
    int generated = 0;
    while (true) {
      Token token = tokens.next(POLL_MS);
      if (token == null) {
        if (engine.failure() != null) {
          error(exchange, 500, "engine failed");
          return;
        }
        continue;
      }
      if (token.aborted()) {
        error(exchange, 500, "request aborted");
        return;
      }
      generated = token.generated();
      if (token.last()) {
        break;
      }
    }
    Replies.send(
        exchange,
        200,
        JSON,
        chunks.whole(request.promptTokens(), generated).getBytes(StandardCharsets.UTF_8));
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

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    Replies.send(
        exchange, status, JSON, SseChunks.error(status, message).getBytes(StandardCharsets.UTF_8));
  }

  private record Token(int generated, boolean last, boolean aborted) {}

  /** The engine thread's tokens for one request, handed to its HTTP thread. */
  private static final class Tokens implements LiveEngine.Stream {
    private final BlockingQueue<Token> queue = new LinkedBlockingQueue<>();

    @Override
    public void token(int generated, boolean last) {
      queue.add(new Token(generated, last, false));
    }

    @Override
    public void aborted() {
      queue.add(new Token(0, true, true));
    }

    @Nullable Token next(long timeoutMs) throws InterruptedException {
      return queue.poll(timeoutMs, TimeUnit.MILLISECONDS);
    }
  }
}
