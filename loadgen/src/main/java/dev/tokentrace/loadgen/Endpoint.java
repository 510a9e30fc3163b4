package dev.tokentrace.loadgen;

import java.util.Locale;

/** The OpenAI-compatible endpoint a run calls. */
public enum Endpoint {
  COMPLETIONS("/v1/completions"),
  CHAT("/v1/chat/completions");

  private final String path;

  Endpoint(String path) {
    this.path = path;
  }

  public String path() {
    return path;
  }

  /**
   * Parses {@code completions} or {@code chat}.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static Endpoint of(String text) {
    switch (text.strip().toLowerCase(Locale.ROOT)) {
      case "completions":
        return COMPLETIONS;
      case "chat":
        return CHAT;
      default:
        throw new IllegalArgumentException("--api '" + text + "' is not one of completions, chat");
    }
  }
}
