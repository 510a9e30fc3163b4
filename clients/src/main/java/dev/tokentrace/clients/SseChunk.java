package dev.tokentrace.clients;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one recorded server response (a GenAI-Perf {@code response_outputs[j]}) says about its
 * request, from the raw SSE text ({@code data: {...}}) or a whole JSON body: the response {@code
 * id}, whether it carried generated text, and {@code usage} counts. The text itself is read and
 * dropped: it is user data. A payload that is not JSON (a Triton tensor, {@code [DONE]}) says
 * nothing.
 */
record SseChunk(
    @Nullable String id,
    boolean content,
    @Nullable Long completionTokens,
    @Nullable Long promptTokens) {
  static final SseChunk NOTHING = new SseChunk(null, false, null, null);

  /** Every textual field of the output object is read as SSE text or a JSON body. */
  static SseChunk of(JsonNode output) {
    SseChunk merged = NOTHING;
    if (output.isTextual()) {
      return parseText(output.asText());
    }
    Iterator<Map.Entry<String, JsonNode>> fields = output.fields();
    while (fields.hasNext()) {
      JsonNode value = fields.next().getValue();
      if (value.isTextual()) {
        merged = merged.and(parseText(value.asText()));
      }
    }
    return merged;
  }

  private static SseChunk parseText(String text) {
    SseChunk merged = NOTHING;
    if (text.stripLeading().startsWith("{")) {
      return payload(text.strip());
    }
    for (String line : text.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.startsWith("data:")) {
        merged = merged.and(payload(trimmed.substring("data:".length()).strip()));
      }
    }
    return merged;
  }

  private static SseChunk payload(String json) {
    if (!json.startsWith("{")) {
      return NOTHING; // [DONE] or not JSON
    }
    JsonNode body;
    try {
      body = ClientJson.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      return NOTHING; // a cut-off payload carries nothing we can trust
    }
    String id = ClientJson.text(body, "id");
    JsonNode usage = body.path("usage");
    return new SseChunk(
        id == null || id.isBlank() ? null : id,
        hasContent(body.path("choices")),
        usage.path("completion_tokens").canConvertToLong()
            ? usage.path("completion_tokens").longValue()
            : null,
        usage.path("prompt_tokens").canConvertToLong()
            ? usage.path("prompt_tokens").longValue()
            : null);
  }

  /**
   * Generated text in a completions ({@code text}) or chat ({@code delta}/{@code message}) choice.
   */
  private static boolean hasContent(JsonNode choices) {
    for (JsonNode choice : choices) {
      if (nonEmpty(choice.path("text"))
          || nonEmpty(choice.path("delta").path("content"))
          || nonEmpty(choice.path("delta").path("reasoning_content"))
          || nonEmpty(choice.path("message").path("content"))) {
        return true;
      }
    }
    return false;
  }

  private static boolean nonEmpty(JsonNode node) {
    return node.isTextual() && !node.asText().isEmpty();
  }

  /** This and a later chunk: first ID, any content, last usage. */
  SseChunk and(SseChunk later) {
    return new SseChunk(
        id != null ? id : later.id,
        content || later.content,
        later.completionTokens != null ? later.completionTokens : completionTokens,
        later.promptTokens != null ? later.promptTokens : promptTokens);
  }
}
