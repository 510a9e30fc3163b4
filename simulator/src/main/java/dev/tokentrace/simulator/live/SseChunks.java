package dev.tokentrace.simulator.live;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.simulator.output.Api;

/**
 * The JSON a vLLM-like OpenAI server sends for one request: SSE {@code data:} events for streamed
 * chunks ({@code text_completion} / {@code chat.completion.chunk}), the usage chunk with empty
 * {@code choices}, the whole response, and error bodies. Generated text is a placeholder word per
 * token. Immutable.
 */
final class SseChunks {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The served model name, in every response and in {@code /v1/models}. */
  static final String MODEL = "simulated";

  private final Api api;
  private final String id;
  private final long created = System.currentTimeMillis() / 1000;

  SseChunks(Api api, String id) {
    this.api = api;
    this.id = CompletionHandler.ID.matcher(id).matches() ? id : "invalid";
  }

  /** The first chat chunk: the assistant role and empty content. */
  String role() {
    return event(choice("{\"role\":\"assistant\",\"content\":\"\"}", "null"));
  }

  String token(int generated) {
    String text = generated == 1 ? "tok" : " tok";
    return event(
        api == Api.CHAT
            ? choice("{\"content\":\"" + text + "\"}", "null")
            : choice("\"" + text + "\"", "null"));
  }

  /** The last chunk: no text, {@code finish_reason} length (the server generates max_tokens). */
  String finish() {
    return event(api == Api.CHAT ? choice("{}", "\"length\"") : choice("\"\"", "\"length\""));
  }

  String usage(int promptTokens, int completionTokens) {
    return event(head() + ",\"choices\":[]," + usageJson(promptTokens, completionTokens) + "}");
  }

  String whole(int promptTokens, int completionTokens) {
    String text = "tok" + " tok".repeat(Math.max(0, completionTokens - 1));
    String choice =
        api == Api.CHAT
            ? "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"" + text + "\"}"
            : "{\"index\":0,\"text\":\"" + text + "\"";
    return "{\"id\":\""
        + id
        + "\",\"object\":\""
        + (api == Api.CHAT ? "chat.completion" : "text_completion")
        + "\",\"created\":"
        + created
        + ",\"model\":\""
        + MODEL
        + "\",\"choices\":["
        + choice
        + ",\"finish_reason\":\"length\"}],"
        + usageJson(promptTokens, completionTokens)
        + "}";
  }

  static String error(int status, String message) {
    try {
      return "{\"object\":\"error\",\"message\":"
          + JSON.writeValueAsString(message)
          + ",\"type\":\"BadRequestError\",\"code\":"
          + status
          + "}";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode an error message", e);
    }
  }

  private String choice(String content, String finishReason) {
    String field = api == Api.CHAT ? "\"delta\":" : "\"text\":";
    return head()
        + ",\"choices\":[{\"index\":0,"
        + field
        + content
        + ",\"logprobs\":null,\"finish_reason\":"
        + finishReason
        + "}]}";
  }

  private String head() {
    return "{\"id\":\""
        + id
        + "\",\"object\":\""
        + (api == Api.CHAT ? "chat.completion.chunk" : "text_completion")
        + "\",\"created\":"
        + created
        + ",\"model\":\""
        + MODEL
        + "\"";
  }

  private static String usageJson(int promptTokens, int completionTokens) {
    return "\"usage\":{\"prompt_tokens\":"
        + promptTokens
        + ",\"completion_tokens\":"
        + completionTokens
        + ",\"total_tokens\":"
        + (promptTokens + completionTokens)
        + "}";
  }

  private static String event(String json) {
    return "data: " + json + "\n\n";
  }
}
