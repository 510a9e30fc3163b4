package dev.tokentrace.parse;

import java.util.List;

/**
 * Keeps prompt and response text out of rejects. A rejected line's excerpt is stored (rejects
 * table) and shipped (rejects topic); when the line is a request log the parser could not read, it
 * may carry a prompt. Everything after the first field that holds user text is replaced, keeping
 * the part before it (timestamp, level, request ID) for diagnosis.
 *
 * <p>The fields are those the engines print request content under: vLLM {@code prompt: %r} and
 * {@code prompt_token_ids} (docs/formats/vllm.md#request-logging-flags, every generation of {@code
 * Received request} and the DEBUG {@code details} line), SGLang {@code Receive:}/{@code Finish:}
 * objects with {@code text}, {@code input_ids}, {@code out} in all three renderings (repr {@code
 * text=}, unquoted {@code text: } since v0.4.1, JSON {@code "text":};
 * docs/formats/sglang.md#request-lines), and the OpenAI request body keys {@code prompt}, {@code
 * messages}, {@code content}. A field counts only at a word boundary, so {@code context=} is not
 * {@code text=}.
 */
public final class UserText {
  /** What replaces the user text. */
  public static final String REMOVED = "[user text removed]";

  private static final List<String> FIELDS =
      List.of(
          "prompt",
          "prompt_token_ids",
          "text",
          "input_ids",
          "input_embeds",
          "messages",
          "content",
          "out",
          "output_text",
          "output_ids");

  private UserText() {}

  /** {@code line} with any user text removed; the same instance when there is none. */
  public static String redact(String line) {
    int cut = -1;
    for (String field : FIELDS) {
      int at = valueStart(line, field);
      if (at >= 0 && (cut < 0 || at < cut)) {
        cut = at;
      }
    }
    return cut < 0 ? line : line.substring(0, cut) + REMOVED;
  }

  /** Where the value of {@code field} starts in {@code line} ({@code -1} when it is not there). */
  private static int valueStart(String line, String field) {
    int from = 0;
    while (true) {
      int at = line.indexOf(field, from);
      if (at < 0) {
        return -1;
      }
      from = at + 1;
      if (at > 0 && isWordChar(line.charAt(at - 1))) {
        continue;
      }
      int end = at + field.length();
      // a quoted key: "text": or 'text':
      if (at > 0 && end < line.length()) {
        char open = line.charAt(at - 1);
        if ((open == '"' || open == '\'') && line.charAt(end) == open) {
          end++;
        }
      }
      if (end < line.length()) {
        char next = line.charAt(end);
        if (next == '=' || next == ':') {
          return end + 1;
        }
      }
    }
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
