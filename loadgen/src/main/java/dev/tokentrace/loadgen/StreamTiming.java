package dev.tokentrace.loadgen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * What one streamed OpenAI-compatible response tells the client, from its SSE events' data: a token
 * chunk is one whose first choice has non-empty {@code text} (completions) or {@code delta.content}
 * / {@code delta.reasoning_content} (chat); role-only, empty and finish chunks, the usage chunk and
 * {@code [DONE]} are not tokens (the seed's pitfall: heartbeats and empty chunks counted as
 * tokens). Keeps only times and counts, never the text. Not thread-safe.
 */
final class StreamTiming implements SseParser.Listener {
  static final String DONE = "[DONE]";
  private static final ObjectMapper JSON = new ObjectMapper();

  private long firstTokenNanos = -1;
  private long lastTokenNanos = -1;
  private long[] tokenNanos = new long[64];
  private int chunks;
  private @Nullable Integer usageTokens;
  private boolean done;
  private @Nullable String error;
  private int badEvents;

  @Override
  public void data(String data, long readNanos) {
    if (data.strip().equals(DONE)) {
      done = true;
      return;
    }
    JsonNode event;
    try {
      event = JSON.readTree(data);
    } catch (JsonProcessingException e) {
      badEvents++; // counted and reported in the status; the text is never kept
      return;
    }
    if (event == null || !event.isObject()) {
      badEvents++;
      return;
    }
    if (event.has("error")) {
      error = "server error in stream"; // its message may quote the prompt: not kept
      return;
    }
    JsonNode usage = event.path("usage").path("completion_tokens");
    if (usage.canConvertToInt()) {
      usageTokens = usage.asInt();
    }
    if (hasContent(event.path("choices").path(0))) {
      token(readNanos);
    }
  }

  private static boolean hasContent(JsonNode choice) {
    if (choice.isMissingNode()) {
      return false;
    }
    return nonEmpty(choice.get("text"))
        || nonEmpty(choice.path("delta").get("content"))
        || nonEmpty(choice.path("delta").get("reasoning_content"));
  }

  private static boolean nonEmpty(@Nullable JsonNode text) {
    return text != null && text.isTextual() && !text.asText().isEmpty();
  }

  private void token(long readNanos) {
    if (firstTokenNanos < 0) {
      firstTokenNanos = readNanos;
    }
    lastTokenNanos = readNanos;
    if (chunks == tokenNanos.length) {
      tokenNanos = Arrays.copyOf(tokenNanos, chunks * 2);
    }
    tokenNanos[chunks++] = readNanos;
  }

  long firstTokenNanos() {
    return firstTokenNanos;
  }

  long lastTokenNanos() {
    return lastTokenNanos;
  }

  /** Chunks that carried content. */
  int tokenChunks() {
    return chunks;
  }

  /** The server's {@code usage.completion_tokens}, when it sent a usage chunk. */
  @Nullable Integer usageTokens() {
    return usageTokens;
  }

  /** Output tokens: the server's usage count if it sent one, else the content chunks. */
  int outputTokens() {
    return usageTokens != null ? usageTokens : chunks;
  }

  boolean done() {
    return done;
  }

  @Nullable String error() {
    return error;
  }

  int badEvents() {
    return badEvents;
  }

  /** Gaps between consecutive content chunks, in ms. */
  double[] itlsMs() {
    double[] itls = new double[Math.max(0, chunks - 1)];
    for (int i = 1; i < chunks; i++) {
      itls[i - 1] = (tokenNanos[i] - tokenNanos[i - 1]) / 1e6;
    }
    return itls;
  }
}
