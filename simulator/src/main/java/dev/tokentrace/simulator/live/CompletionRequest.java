package dev.tokentrace.simulator.live;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * What the server takes from an OpenAI-compatible request body: the prompt's size (the simulated
 * tokenizer counts one token per whitespace-separated word), {@code max_tokens}, whether to stream
 * and to send usage, and SGLang's {@code rid}. The prompt text itself is not kept.
 */
record CompletionRequest(
    int promptTokens, int maxTokens, boolean stream, boolean includeUsage, @Nullable String rid) {
  /** OpenAI's default {@code max_tokens} for completions. */
  static final int DEFAULT_MAX_TOKENS = 16;

  private static final ObjectMapper JSON = new ObjectMapper();

  CompletionRequest {
    if (promptTokens < 1) {
      throw new IllegalArgumentException("prompt must not be empty");
    }
    if (maxTokens < 1) {
      throw new IllegalArgumentException("max_tokens must be >= 1: " + maxTokens);
    }
  }

  /**
   * Reads a {@code /v1/completions} ({@code chat} false) or {@code /v1/chat/completions} body.
   *
   * @throws IllegalArgumentException with a short reason for a body the server refuses (HTTP 400)
   */
  static CompletionRequest parse(byte[] body, boolean chat) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("body is not JSON");
    } catch (IOException e) {
      throw new IllegalArgumentException("body cannot be read");
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("body is not a JSON object");
    }
    int prompt = chat ? messageTokens(root.path("messages")) : promptTokens(root.path("prompt"));
    JsonNode max = root.has("max_completion_tokens") ? root.get("max_completion_tokens") : null;
    if (max == null) {
      max = root.get("max_tokens");
    }
    if (max != null && !max.isNull() && !max.canConvertToInt()) {
      throw new IllegalArgumentException("max_tokens must be an integer");
    }
    int maxTokens = max == null || max.isNull() ? DEFAULT_MAX_TOKENS : max.asInt();
    JsonNode rid = root.get("rid");
    return new CompletionRequest(
        prompt,
        maxTokens,
        root.path("stream").asBoolean(false),
        root.path("stream_options").path("include_usage").asBoolean(false),
        rid != null && rid.isTextual() ? rid.asText() : null);
  }

  private static int promptTokens(JsonNode prompt) {
    if (!prompt.isTextual()) {
      throw new IllegalArgumentException("prompt must be a string");
    }
    return words(prompt.asText());
  }

  private static int messageTokens(JsonNode messages) {
    if (!messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException("messages must be a non-empty array");
    }
    int tokens = 0;
    for (JsonNode message : messages) {
      tokens += contentTokens(message.path("content"));
    }
    return tokens;
  }

  /**
   * A chat message's content: a string, or OpenAI's array of content parts, whose {@code text}
   * parts count and whose other parts (images, audio) the simulated text model ignores, as GuideLLM
   * and AIPerf send it (docs/formats/vllm.md#openai-server-endpoints).
   */
  private static int contentTokens(JsonNode content) {
    if (content.isTextual()) {
      return words(content.asText());
    }
    if (!content.isArray()) {
      throw new IllegalArgumentException(
          "message content must be a string or an array of content parts");
    }
    int tokens = 0;
    for (JsonNode part : content) {
      if (!part.isObject() || !part.path("type").isTextual()) {
        throw new IllegalArgumentException("content part must be an object with a type");
      }
      if ("text".equals(part.get("type").asText())) {
        if (!part.path("text").isTextual()) {
          throw new IllegalArgumentException("text content part must have a string text");
        }
        tokens += words(part.get("text").asText());
      }
    }
    return tokens;
  }

  /** The simulated tokenizer: one token per whitespace-separated word. */
  static int words(String text) {
    requireNonNull(text, "text is null");
    int count = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      boolean space = Character.isWhitespace(text.charAt(i));
      if (!space && !inWord) {
        count++;
      }
      inWord = !space;
    }
    return count;
  }
}
