package dev.tokentrace.loadgen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Instant;

/**
 * Sends one streaming request and times it. The JDK client retries no POST (only idempotent
 * methods, and only with {@code jdk.httpclient.enableAllMethodRetry}), so one request is one
 * attempt: a retry would inflate the load the server saw (the seed's pitfall). Thread-safe.
 */
final class RequestSender {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client;
  private final LoadSettings settings;
  private final String prompt;

  RequestSender(HttpClient client, LoadSettings settings) {
    this.client = client;
    this.settings = settings;
    this.prompt = "hello" + " hello".repeat(settings.promptTokens() - 1);
  }

  /** The request body; the prompt is {@code promptTokens} words, one token each for the sim. */
  byte[] body(String requestId) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", settings.model());
    if (settings.endpoint() == Endpoint.CHAT) {
      body.putArray("messages").addObject().put("role", "user").put("content", prompt);
    } else {
      body.put("prompt", prompt);
    }
    body.put("max_tokens", settings.maxTokens());
    body.put("ignore_eos", true); // vLLM and SGLang: generate exactly max_tokens
    body.put("stream", true);
    body.putObject("stream_options").put("include_usage", true);
    if (settings.sglangRid()) {
      // SGLang ignores X-Request-Id (docs/formats/clients.md#sglang-bench-serving)
      body.put("rid", requestId);
    }
    try {
      return JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException("cannot encode a request body", e);
    }
  }

  /** Sends request {@code requestId}, issued at {@code issuedNanos}; never throws for I/O. */
  Outcome send(String requestId, boolean warmup, Instant issued, long issuedNanos)
      throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(settings.target())
            .timeout(settings.timeout())
            .header("Content-Type", "application/json")
            .header("Accept", "text/event-stream")
            .header("X-Request-Id", requestId)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body(requestId)))
            .build();
    StreamTiming timing = new StreamTiming();
    long sent = System.nanoTime();
    int status = 0;
    String outcome;
    try {
      HttpResponse<InputStream> response =
          client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      status = response.statusCode();
      try (InputStream in = response.body()) {
        if (status != 200) {
          in.transferTo(java.io.OutputStream.nullOutputStream()); // error text may quote prompts
          outcome = "http " + status;
        } else {
          read(in, timing);
          outcome = verdict(timing);
        }
      }
    } catch (HttpConnectTimeoutException | ConnectException e) {
      outcome = Failure.UNREACHABLE;
    } catch (HttpTimeoutException e) {
      outcome = "error: timeout";
    } catch (IOException e) {
      outcome = "error: " + e.getClass().getSimpleName();
    }
    long end = System.nanoTime();
    return new Outcome(
        requestId,
        warmup,
        issued,
        issuedNanos,
        sent,
        timing.firstTokenNanos(),
        timing.lastTokenNanos(),
        end,
        timing.tokenChunks() > 0 ? timing.outputTokens() : null,
        timing.itlsMs(),
        status,
        outcome);
  }

  private static void read(InputStream in, StreamTiming timing) throws IOException {
    SseParser parser = new SseParser(timing);
    byte[] buffer = new byte[8192];
    int read;
    while ((read = in.read(buffer)) >= 0) {
      parser.feed(buffer, 0, read, System.nanoTime());
    }
    parser.end();
  }

  private static String verdict(StreamTiming timing) {
    if (timing.error() != null) {
      return "error: " + timing.error();
    }
    if (!timing.done()) {
      return "error: stream ended without [DONE]";
    }
    if (timing.tokenChunks() == 0) {
      return "error: no tokens";
    }
    return Outcome.OK;
  }

  /** Status texts the runner acts on. */
  static final class Failure {
    static final String UNREACHABLE = "error: connection refused";

    private Failure() {}
  }
}
