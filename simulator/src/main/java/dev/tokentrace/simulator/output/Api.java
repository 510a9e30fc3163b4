package dev.tokentrace.simulator.output;

import java.util.Locale;

/**
 * The OpenAI-compatible endpoint the client calls; it decides vLLM's ID prefix
 * (docs/formats/vllm.md#request-ids).
 */
public enum Api {
  /** {@code /v1/chat/completions}: vLLM ID {@code chatcmpl-<id>}. */
  CHAT("/v1/chat/completions"),
  /** {@code /v1/completions}: vLLM ID {@code cmpl-<id>-0} (one prompt per request). */
  COMPLETIONS("/v1/completions");

  private final String path;

  Api(String path) {
    this.path = path;
  }

  public String path() {
    return path;
  }

  /**
   * Parses {@code chat} or {@code completions}.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static Api of(String text) {
    switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "chat":
        return CHAT;
      case "completions":
        return COMPLETIONS;
      default:
        throw new IllegalArgumentException("unknown api '" + text + "' (known: chat, completions)");
    }
  }
}
