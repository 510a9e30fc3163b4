package dev.tokentrace.parse.vllm;

/**
 * Skips over Python {@code repr} output in request lines without looking at its content: quoted
 * strings (prompt and output text, which are user data and never kept), bracketed lists and calls
 * such as {@code SamplingParams(...)}. All methods are linear, so a request line with a
 * multi-megabyte prompt costs one pass.
 */
final class PythonRepr {
  /** Returned when the value does not end on this line (cut, or not a repr). */
  static final int UNTERMINATED = -1;

  private PythonRepr() {}

  /** The end of a quoted string starting at {@code at} ({@code '...'} or {@code "..."}). */
  static int skipString(String text, int at) {
    if (at >= text.length()) {
      return UNTERMINATED;
    }
    char quote = text.charAt(at);
    if (quote != '\'' && quote != '"') {
      return UNTERMINATED;
    }
    int cursor = at + 1;
    while (cursor < text.length()) {
      char c = text.charAt(cursor);
      if (c == '\\') {
        cursor += 2;
      } else if (c == quote) {
        return cursor + 1;
      } else {
        cursor++;
      }
    }
    return UNTERMINATED;
  }

  /** The end of a string or {@code None} at {@code at}. */
  static int skipStringOrNone(String text, int at) {
    if (text.startsWith("None", at)) {
      return at + 4;
    }
    return skipString(text, at);
  }

  /**
   * The end of the bracketed value opening at {@code at} ({@code (}, {@code [} or <code>{</code>),
   * skipping quoted strings inside it.
   */
  static int skipBracketed(String text, int at) {
    if (at >= text.length() || "([{".indexOf(text.charAt(at)) < 0) {
      return UNTERMINATED;
    }
    int depth = 0;
    int cursor = at;
    while (cursor < text.length()) {
      char c = text.charAt(cursor);
      if (c == '\'' || c == '"') {
        cursor = skipString(text, cursor);
        if (cursor == UNTERMINATED) {
          return UNTERMINATED;
        }
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        depth--;
        if (depth == 0) {
          return cursor + 1;
        }
      }
      cursor++;
    }
    return UNTERMINATED;
  }

  /** The end of {@code Name(...)} at {@code at}, e.g. {@code SamplingParams(n=1, ...)}. */
  static int skipCall(String text, int at) {
    int cursor = at;
    while (cursor < text.length()
        && (Ascii.isLetter(text.charAt(cursor))
            || Ascii.isDigit(text.charAt(cursor))
            || text.charAt(cursor) == '_'
            || text.charAt(cursor) == '.')) {
      cursor++;
    }
    if (cursor == at || cursor >= text.length() || text.charAt(cursor) != '(') {
      return UNTERMINATED;
    }
    return skipBracketed(text, cursor);
  }

  /**
   * The number of elements of the flat list {@code [1, 2, 3]} opening at {@code at} and ending
   * before {@code end}: commas plus one, zero for {@code []}.
   */
  static int countElements(String text, int at, int end) {
    if (end - at <= 2) {
      return 0;
    }
    int commas = 0;
    for (int cursor = at + 1; cursor < end - 1; cursor++) {
      if (text.charAt(cursor) == ',') {
        commas++;
      }
    }
    return commas + 1;
  }

  /**
   * The value of the keyword argument {@code name=} at the top level of the call {@code text[from,
   * to)} (quoted strings and nested brackets skipped), as a non-negative int; -1 when it is absent,
   * {@code None} or not an int.
   */
  static int keywordInt(String text, int from, int to, String name) {
    int depth = 0;
    int cursor = from;
    while (cursor < to) {
      char c = text.charAt(cursor);
      if (c == '\'' || c == '"') {
        cursor = skipString(text, cursor);
        if (cursor == UNTERMINATED || cursor > to) {
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
