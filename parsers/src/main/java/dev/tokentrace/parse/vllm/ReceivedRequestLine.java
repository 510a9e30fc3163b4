package dev.tokentrace.parse.vllm;

import dev.tokentrace.parse.PythonRepr;
import org.jspecify.annotations.Nullable;

/**
 * Reads the parts of {@code Received request} (and the DEBUG {@code Request X details}) line that
 * are not user data, every layout of docs/formats/vllm.md#request-lines:
 *
 * <pre>
 * ID: prompt: 'text', sampling params: SamplingParams(...), prompt token ids: [1, 2].      2023
 * ID: prompt: 'text', prefix_pos: None,sampling_params: SamplingParams(...), ...           v0.3
 * ID: prompt: 'text', (sampling_)params: SamplingParams(...), prompt_token_ids: [...], ...  2024-25
 * ID: params: SamplingParams(...), lora_request: None.                                    2025-10-13 on
 * </pre>
 *
 * The prompt is skipped as a Python string repr, never looked into; {@code max_tokens} comes from
 * the params repr and the prompt token count from the length of the token-id list (commas counted,
 * the list not kept). With {@code --max-log-len N} vLLM cuts that list to N ids, so the count is
 * then at most N: the line does not say whether it was cut.
 */
final class ReceivedRequestLine {
  static final String PREFIX = "Received request ";
  static final String DETAILS = " details: prompt: ";
  private static final String PROMPT = ": prompt: ";
  private static final String PARAMS = ": params: ";

  /** How far after the prompt the params label may start ({@code , prefix_pos: None,...}). */
  private static final int LABEL_WINDOW = 48;

  private ReceivedRequestLine() {}

  /** The parts of one request line worth keeping. */
  record Parts(String id, @Nullable Integer promptTokens, @Nullable Integer maxTokens) {}

  /** Where the ID ends in a {@code Received request} message, or -1. */
  static int idEnd(String message) {
    int prompt = message.indexOf(PROMPT, PREFIX.length());
    int params = message.indexOf(PARAMS, PREFIX.length());
    if (prompt < 0) {
      return params;
    }
    return params < 0 ? prompt : Math.min(prompt, params);
  }

  /** Reads a message whose ID ends at {@code idEnd}; parts the line does not hold are null. */
  static Parts read(String message, int idEnd) {
    String id = message.substring(PREFIX.length(), idEnd);
    int cursor = idEnd + 2;
    if (message.startsWith("prompt: ", cursor)) {
      cursor = PythonRepr.skipStringOrNone(message, cursor + "prompt: ".length());
      if (cursor == PythonRepr.UNTERMINATED) {
        return new Parts(id, null, null);
      }
      cursor = labelEnd(message, cursor, "params: ");
    } else {
      cursor += "params: ".length();
    }
    Integer maxTokens = null;
    if (cursor > 0) {
      int paramsEnd = PythonRepr.skipCall(message, cursor);
      if (paramsEnd == PythonRepr.UNTERMINATED) {
        return new Parts(id, null, null);
      }
      int max = keywordInt(message, cursor, paramsEnd, "max_tokens");
      maxTokens = max >= 0 ? max : null;
      cursor = paramsEnd;
    } else {
      return new Parts(id, null, null);
    }
    int ids = labelEnd(message, cursor, "token ids: ");
    if (ids < 0) {
      ids = labelEnd(message, cursor, "token_ids: ");
    }
    return new Parts(id, tokenCount(message, ids), maxTokens);
  }

  /**
   * Reads the DEBUG line {@code Request ID details: prompt: 'text', prompt_token_ids: [...],
   * prompt_embeds shape: None.} (5c7fe2549, 2025-10-13), which since then is the only one with the
   * token ids; {@code idEnd} is where {@link #DETAILS} starts.
   */
  static Parts readDetails(String message, int idEnd) {
    String id = message.substring("Request ".length(), idEnd);
    int cursor = PythonRepr.skipStringOrNone(message, idEnd + DETAILS.length());
    if (cursor == PythonRepr.UNTERMINATED) {
      return new Parts(id, null, null);
    }
    return new Parts(id, tokenCount(message, labelEnd(message, cursor, "token_ids: ")), null);
  }

  private static @Nullable Integer tokenCount(String message, int at) {
    if (at < 0 || at >= message.length() || message.charAt(at) != '[') {
      return null;
    }
    int end = PythonRepr.skipBracketed(message, at);
    return end == PythonRepr.UNTERMINATED ? null : PythonRepr.countElements(message, at, end);
  }

  /** The index after {@code label} if it starts within a few characters of {@code from}, or -1. */
  private static int labelEnd(String message, int from, String label) {
    int limit = Math.min(message.length(), from + LABEL_WINDOW + label.length());
    for (int at = from; at + label.length() <= limit; at++) {
      if (message.startsWith(label, at)) {
        return at + label.length();
      }
    }
    return -1;
  }

  /**
   * The value of the keyword argument {@code name=} at the top level of the call {@code text[from,
   * to)} (quoted strings and nested brackets skipped), as a non-negative int; -1 when it is absent,
   * {@code None} or not an int.
   */
  private static int keywordInt(String text, int from, int to, String name) {
    int depth = 0;
    int cursor = from;
    while (cursor < to) {
      char c = text.charAt(cursor);
      if (c == '\'' || c == '"') {
        cursor = PythonRepr.skipString(text, cursor);
        if (cursor == PythonRepr.UNTERMINATED || cursor > to) {
          return -1;
        }
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
      } else if (depth == 1 && isKeywordAt(text, cursor, name)) {
        int start = cursor + name.length() + 1;
        return Decimals.integer(text, start, Ascii.digitsEnd(text, start));
      }
      cursor++;
    }
    return -1;
  }

  private static boolean isKeywordAt(String text, int at, String name) {
    char before = text.charAt(at - 1);
    return (before == ' ' || before == '(')
        && text.startsWith(name, at)
        && text.startsWith("=", at + name.length());
  }
}
