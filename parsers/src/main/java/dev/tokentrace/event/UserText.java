package dev.tokentrace.event;

import java.util.List;

/**
 * Keeps prompt and response text out of everything tokentrace stores or prints: reject excerpts and
 * reasons, notice messages, client error texts. The value of every field that holds user text is
 * replaced by {@code <redacted N chars>}, keeping the rest of the message as it was, so that {@code
 * Error in preprocessing prompt inputs: {'messages': [{'role': 'user', 'content': 'hi'}]}} becomes
 * {@code ... {'messages': [{'role': <redacted 4 chars>, 'content': <redacted 2 chars>}]}}. Rules
 * and their sources: docs/privacy.md.
 *
 * <p>A field is one of {@link #FIELDS} at a word boundary, written as a keyword argument ({@code
 * text='...'}, Python reprs), a quoted key ({@code 'content':} or {@code "content":}, dict reprs
 * and JSON), a bare key before a quoted or bracketed value ({@code prompt: '...'}, vLLM request
 * lines; {@code text: "..."}, SGLang v0.4.1), or a word before a quoted value ({@code input text
 * '...'}, free-text warnings). Its value is a quoted string (to the closing quote; for the
 * free-text form, which nothing escapes, to the last such quote on the line; to the end when it is
 * not closed) or a bracketed value, whose quoted values (not its keys) are all replaced, or the
 * whole of it when it holds no keys (token-id lists, lists of prompts). Other values (numbers,
 * {@code None}) stay.
 *
 * <p>Pure and thread-safe.
 */
public final class UserText {
  /** The fields engines, clients and OpenAI request bodies carry user text under. */
  static final List<String> FIELDS =
      List.of(
          "prompt",
          "prompts",
          "prompt_token_ids",
          "text",
          "texts",
          "input",
          "inputs",
          "input_ids",
          "input_embeds",
          "input_value",
          "messages",
          "content",
          "out",
          "output",
          "output_text",
          "output_ids",
          "generated_text",
          "generated_texts");

  private UserText() {}

  /** What replaces {@code length} characters of user text. */
  public static String marker(long length) {
    return "<redacted " + length + " chars>";
  }

  /** {@code text} with every user-text value replaced; the same instance when there is none. */
  public static String redact(String text) {
    if (!mayHoldUserText(text)) {
      return text;
    }
    StringBuilder out = null;
    int copied = 0;
    int from = 0;
    while (true) {
      Value value = nextValue(text, from);
      if (value == null) {
        break;
      }
      if (out == null) {
        out = new StringBuilder(text.length());
      }
      out.append(text, copied, value.start()).append(value.replacement());
      copied = value.end();
      from = value.end();
    }
    if (out == null) {
      return text;
    }
    return out.append(text, copied, text.length()).toString();
  }

  /** Whether {@code text} holds a user-text value. */
  public static boolean contains(String text) {
    return mayHoldUserText(text) && nextValue(text, 0) != null;
  }

  /**
   * The quote character of a user-text value that {@code line} opens and does not close (a prompt
   * printed over several lines), or 0. Cheap for the common line without quotes.
   */
  public static char unterminatedQuote(String line) {
    if (!hasOddQuotes(line)) {
      return 0;
    }
    int from = 0;
    char open = 0;
    while (true) {
      Value value = nextValue(line, from);
      if (value == null) {
        return open;
      }
      open = value.openQuote();
      from = value.end();
    }
  }

  /**
   * Where a value left open by {@code quote} on an earlier line closes in {@code line} (searching
   * from {@code from}): the index of the closing quote, or -1 when the whole line is still inside.
   */
  public static int closingQuote(String line, int from, char quote) {
    for (int i = from; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == quote) {
        return i;
      }
    }
    return -1;
  }

  /** Cheap pre-check: every field is at least 3 letters followed by one of these characters. */
  private static boolean mayHoldUserText(String text) {
    return text.indexOf('=') >= 0
        || text.indexOf(':') >= 0
        || text.indexOf('\'') >= 0
        || text.indexOf('"') >= 0;
  }

  /**
   * Whether {@code line} has an odd number of single or of double quotes, a backslash escaping the
   * character after it. Every line of every source passes here ({@code UserTextGuard}), so the
   * common cases take the JDK's vectorized {@code indexOf} first: no quote at all (most log lines),
   * or no backslash (then the parity is the plain count, taken without a branch per quote, which
   * JSON lines are full of). docs/design.md#line-prechecks
   */
  static boolean hasOddQuotes(String line) {
    int dq = line.indexOf('"');
    int sq = line.indexOf('\'');
    if (dq < 0 && sq < 0) {
      return false;
    }
    if (line.indexOf('\\') >= 0) {
      return hasOddQuotesEscaped(line);
    }
    int from = dq < 0 ? sq : sq < 0 ? dq : Math.min(dq, sq);
    int single = 0;
    int dbl = 0;
    for (int i = from; i < line.length(); i++) {
      char c = line.charAt(i);
      single += c == '\'' ? 1 : 0;
      dbl += c == '"' ? 1 : 0;
    }
    return (single & 1) == 1 || (dbl & 1) == 1;
  }

  /** {@link #hasOddQuotes} character by character, for a line holding a backslash. */
  static boolean hasOddQuotesEscaped(String line) {
    int single = 0;
    int dbl = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == '\'') {
        single++;
      } else if (c == '"') {
        dbl++;
      }
    }
    return (single & 1) == 1 || (dbl & 1) == 1;
  }

  /**
   * One user-text value: {@code [start, end)} is replaced by {@code replacement}; {@code openQuote}
   * is the quote of a string that runs to the end of the text unclosed (else 0).
   */
  private record Value(int start, int end, String replacement, char openQuote) {}

  /** The first user-text value whose field starts at or after {@code from}, or null. */
  private static Value nextValue(String text, int from) {
    Value first = null;
    for (String field : FIELDS) {
      Value value = valueOf(text, field, from);
      if (value != null && (first == null || value.start() < first.start())) {
        first = value;
      }
    }
    return first;
  }

  private static Value valueOf(String text, String field, int from) {
    int search = from;
    while (true) {
      int at = text.indexOf(field, search);
      if (at < 0) {
        return null;
      }
      search = at + 1;
      if (at > 0 && isWordChar(text.charAt(at - 1))) {
        continue;
      }
      Value value = valueAfter(text, at, at + field.length());
      if (value != null) {
        return value;
      }
    }
  }

  /** The value of the field spanning {@code [at, end)}, if the text gives it one of our forms. */
  private static Value valueAfter(String text, int at, int end) {
    if (end < text.length() && isWordChar(text.charAt(end))) {
      return null;
    }
    boolean quotedKey = false;
    if (at > 0 && end < text.length()) {
      char open = text.charAt(at - 1);
      if ((open == '"' || open == '\'') && text.charAt(end) == open) {
        end++;
        quotedKey = true;
      }
    }
    if (end >= text.length()) {
      return null;
    }
    char separator = text.charAt(end);
    if (separator == '=' || separator == ':') {
      int start = skipSpaces(text, end + 1);
      if (start >= text.length()) {
        return null;
      }
      char first = text.charAt(start);
      if (isQuote(first)) {
        return quoted(text, start, false);
      }
      if (isOpenBracket(first)) {
        return bracketed(text, start);
      }
      // an unquoted value after key= or 'key': is a name, a number or None; after a bare key
      // ("timed out: 30 s") it is ordinary log text
      return null;
    }
    if (separator == ' ' && !quotedKey) {
      // free text: "input text 'hello'" (nothing escapes it: take up to the last such quote)
      int start = end + 1;
      if (start < text.length() && isQuote(text.charAt(start))) {
        return quoted(text, start, true);
      }
    }
    return null;
  }

  private static Value quoted(String text, int start, boolean toLastQuote) {
    char quote = text.charAt(start);
    int close =
        toLastQuote ? lastQuote(text, start + 1, quote) : closingQuote(text, start + 1, quote);
    if (close < 0) {
      return new Value(start, text.length(), marker(text.length() - start - 1), quote);
    }
    return new Value(start, close + 1, marker(close - start - 1), (char) 0);
  }

  private static int lastQuote(String text, int from, char quote) {
    int at = text.lastIndexOf(quote);
    return at >= from ? at : -1;
  }

  /**
   * A bracketed value: its quoted values replaced one by one when it has keys (a message list keeps
   * {@code 'role'} and {@code 'content'}), else all of it.
   */
  private static Value bracketed(String text, int start) {
    int close = matchingBracket(text, start);
    int end = close < 0 ? text.length() : close + 1;
    String inner = text.substring(start, end);
    char open = close < 0 ? openAtEnd(inner) : 0;
    String replaced = hasKeys(inner) ? redactValues(inner) : null;
    if (replaced == null) {
      return new Value(start, end, marker(end - start), open);
    }
    return new Value(start, end, replaced, open);
  }

  /** The quote a text ends inside of (its last string is not closed), or 0. */
  private static char openAtEnd(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        i++;
      } else if (isQuote(c)) {
        int close = closingQuote(text, i + 1, c);
        if (close < 0) {
          return c;
        }
        i = close;
      }
    }
    return 0;
  }

  /** Whether a bracketed value holds keys: a quoted string followed by {@code :}, or {@code k=}. */
  private static boolean hasKeys(String inner) {
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (isQuote(c)) {
        int close = closingQuote(inner, i + 1, c);
        if (close < 0) {
          return false;
        }
        int next = skipSpaces(inner, close + 1);
        if (next < inner.length() && inner.charAt(next) == ':') {
          return true;
        }
        i = close;
      } else if (c == '=' || (c == ':' && i > 0 && isWordChar(inner.charAt(i - 1)))) {
        return true;
      }
    }
    return false;
  }

  /** Every quoted string of {@code inner} that is not a key, replaced by its marker. */
  private static String redactValues(String inner) {
    StringBuilder out = new StringBuilder(inner.length());
    int i = 0;
    while (i < inner.length()) {
      char c = inner.charAt(i);
      if (!isQuote(c)) {
        out.append(c);
        i++;
        continue;
      }
      int close = closingQuote(inner, i + 1, c);
      if (close < 0) {
        out.append(marker(inner.length() - i - 1));
        break;
      }
      int next = skipSpaces(inner, close + 1);
      boolean key = next < inner.length() && inner.charAt(next) == ':';
      if (key) {
        out.append(inner, i, close + 1);
      } else {
        out.append(marker(close - i - 1));
      }
      i = close + 1;
    }
    return out.toString();
  }

  /** The index of the bracket closing the one at {@code start} (quotes respected), or -1. */
  private static int matchingBracket(String text, int start) {
    int depth = 0;
    for (int i = start; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isQuote(c)) {
        int close = closingQuote(text, i + 1, c);
        if (close < 0) {
          return -1;
        }
        i = close;
      } else if (isOpenBracket(c)) {
        depth++;
      } else if (c == ']' || c == '}' || c == ')') {
        depth--;
        if (depth == 0) {
          return i;
        }
      }
    }
    return -1;
  }

  private static int skipSpaces(String text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  private static boolean isQuote(char c) {
    return c == '\'' || c == '"';
  }

  private static boolean isOpenBracket(char c) {
    return c == '[' || c == '{' || c == '(';
  }

  private static boolean isWordChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }
}
