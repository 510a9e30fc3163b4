package dev.tokentrace.parse.sglang;

import org.jspecify.annotations.Nullable;

/**
 * A pull reader over the Python-literal text SGLang prints for request objects: dataclass reprs
 * {@code GenerateReqInput(rid='a', ...)}, dicts with quoted ({@code 'k': v}, v0.4.1.post7+) or bare
 * ({@code k: v}, v0.4.1 – v0.4.1.post6) keys, lists, strings in either quote style with backslash
 * escapes, numbers, {@code None}, and the truncation form {@code 'first' ... 'last'}
 * (docs/formats/sglang.md#request-lines).
 *
 * <p>Values the caller does not ask for are skipped by a bracket-depth scan that is aware of
 * strings, so prompt text is never copied and nesting depth cannot overflow the stack. Only the
 * strings the caller reads (a rid, a finish type) are materialized. Any syntax the reader cannot
 * follow sets {@link #failed()}; it never throws. Not thread-safe; one per line.
 *
 * <p>Longer than the house target on purpose: it is one small lexer, and splitting the quoting and
 * bracket rules across classes would hide how they interact.
 */
final class PyRepr {
  /** What {@link #readScalar} found. */
  enum Scalar {
    NUMBER,
    STRING,
    NONE,
    OTHER
  }

  private final String text;
  private int pos;
  private boolean failed;

  /** Just after an opener: the next item has no separator and no previous value to skip. */
  private boolean fresh;

  private double number;
  private @Nullable String string;

  PyRepr(String text, int start) {
    this.text = text;
    this.pos = start;
  }

  boolean failed() {
    return failed;
  }

  int position() {
    return pos;
  }

  double number() {
    return number;
  }

  @Nullable String string() {
    return string;
  }

  /** Consumes {@code literal} after optional spaces; false (nothing consumed) when absent. */
  boolean accept(String literal) {
    int p = skipSpaces(pos);
    if (text.startsWith(literal, p)) {
      pos = p + literal.length();
      return true;
    }
    return false;
  }

  /** True when only spaces are left. */
  boolean atEnd() {
    return skipSpaces(pos) >= text.length();
  }

  /** True when the next non-space character is {@code c}; consumes nothing. */
  boolean peek(char c) {
    int p = skipSpaces(pos);
    return p < text.length() && text.charAt(p) == c;
  }

  /** Opens {@code Name(}; false and failed when the value is not a call. */
  boolean openCall() {
    int p = skipSpaces(pos);
    int nameEnd = p;
    while (nameEnd < text.length() && isNameChar(text.charAt(nameEnd))) {
      nameEnd++;
    }
    if (nameEnd == p || nameEnd >= text.length() || text.charAt(nameEnd) != '(') {
      failed = true;
      return false;
    }
    pos = nameEnd + 1;
    fresh = true;
    return true;
  }

  /** Opens a dict; false and failed when the value is not one. */
  boolean openDict() {
    return open('{');
  }

  /** Opens a list; false (not failed) when the value is not one. */
  boolean openList() {
    int p = skipSpaces(pos);
    if (p < text.length() && text.charAt(p) == '[') {
      pos = p + 1;
      fresh = true;
      return true;
    }
    return false;
  }

  private boolean open(char opener) {
    int p = skipSpaces(pos);
    if (p >= text.length() || text.charAt(p) != opener) {
      failed = true;
      return false;
    }
    pos = p + 1;
    fresh = true;
    return true;
  }

  /**
   * The next key of the open call or dict, positioned on its value; null when the container ends
   * (its closer is consumed) or on a syntax error ({@link #failed()}). Skips whatever is left of
   * the previous value first, so callers may read a value partly.
   */
  @Nullable String nextKey() {
    if (!nextItem()) {
      return null;
    }
    int p = pos;
    String key;
    if (text.charAt(p) == '\'' || text.charAt(p) == '"') {
      int end = stringEnd(p);
      if (end < 0) {
        return fail();
      }
      key = text.substring(p + 1, end - 1);
      p = end;
    } else {
      int end = p;
      while (end < text.length() && isNameChar(text.charAt(end))) {
        end++;
      }
      if (end == p) {
        return fail();
      }
      key = text.substring(p, end);
      p = end;
    }
    p = skipSpaces(p);
    if (p >= text.length() || (text.charAt(p) != '=' && text.charAt(p) != ':')) {
      return fail();
    }
    pos = skipSpaces(p + 1);
    return key;
  }

  /**
   * Moves to the next element of the open container: true when one follows, false when the
   * container ended (closer consumed) or the text is broken.
   */
  boolean nextItem() {
    if (failed) {
      return false;
    }
    if (fresh) {
      fresh = false;
    } else {
      skipValue();
    }
    int p = skipSpaces(pos);
    if (p >= text.length()) {
      failed = true;
      return false;
    }
    char c = text.charAt(p);
    if (c == ',') {
      p = skipSpaces(p + 1);
      if (p >= text.length()) {
        failed = true;
        return false;
      }
      c = text.charAt(p);
    }
    if (c == ')' || c == '}' || c == ']') {
      pos = p + 1;
      return false;
    }
    pos = p;
    return true;
  }

  /** Reads a number, None or a string at the current position; anything else is skipped. */
  Scalar readScalar() {
    int p = skipSpaces(pos);
    string = null;
    number = Double.NaN;
    if (p < text.length() && (text.charAt(p) == '\'' || text.charAt(p) == '"')) {
      int end = stringEnd(p);
      if (end < 0) {
        failed = true;
        return Scalar.OTHER;
      }
      string = unescape(p + 1, end - 1);
      pos = end;
      return Scalar.STRING;
    }
    int end = p;
    while (end < text.length() && isAtomChar(text.charAt(end))) {
      end++;
    }
    pos = end;
    if (text.startsWith("None", p) && end == p + 4) {
      return Scalar.NONE;
    }
    return parseNumber(p, end) ? Scalar.NUMBER : Scalar.OTHER;
  }

  /**
   * Skips the rest of the current value: everything up to a {@code ,} or closer at depth 0, strings
   * and nested brackets included.
   */
  void skipValue() {
    int depth = 0;
    int p = pos;
    int length = text.length();
    while (p < length) {
      char c = text.charAt(p);
      if (c == '\'' || c == '"') {
        int end = stringEnd(p);
        if (end < 0) {
          failed = true;
          pos = length;
          return;
        }
        p = end;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        depth++;
      } else if (c == ')' || c == ']' || c == '}') {
        if (depth == 0) {
          break;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        break;
      }
      p++;
    }
    pos = p;
  }

  private boolean parseNumber(int start, int end) {
    if (end == start || end - start > 64) {
      return false;
    }
    char first = text.charAt(start);
    if (!(first >= '0' && first <= '9') && first != '-' && first != '.') {
      return false;
    }
    try {
      number = Double.parseDouble(text.substring(start, end));
      return true;
    } catch (NumberFormatException notANumber) {
      // a Python token that is not a number ("inf", "1.2.3"): the caller treats it as a bad value
      return false;
    }
  }

  /** Index after the closing quote of the string starting at {@code start}, or -1. */
  private int stringEnd(int start) {
    char quote = text.charAt(start);
    int length = text.length();
    for (int i = start + 1; i < length; i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == quote) {
        return i + 1;
      }
    }
    return -1;
  }

  private String unescape(int start, int end) {
    if (text.indexOf('\\', start) < 0 || text.indexOf('\\', start) >= end) {
      return text.substring(start, end);
    }
    StringBuilder out = new StringBuilder(end - start);
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (c != '\\' || i + 1 >= end) {
        out.append(c);
        continue;
      }
      char next = text.charAt(++i);
      int hexDigits = next == 'x' ? 2 : next == 'u' ? 4 : next == 'U' ? 8 : 0;
      if (hexDigits > 0 && i + hexDigits < end) {
        int code = hex(i + 1, hexDigits);
        if (code >= 0 && Character.isValidCodePoint(code)) {
          out.appendCodePoint(code);
          i += hexDigits;
          continue;
        }
      }
      out.append(next == 'n' ? '\n' : next == 't' ? '\t' : next == 'r' ? '\r' : next);
    }
    return out.toString();
  }

  private int hex(int start, int count) {
    int value = 0;
    for (int i = start; i < start + count; i++) {
      int digit = Character.digit(text.charAt(i), 16);
      if (digit < 0) {
        return -1;
      }
      value = value * 16 + digit;
    }
    return value;
  }

  private int skipSpaces(int from) {
    int p = from;
    while (p < text.length() && text.charAt(p) == ' ') {
      p++;
    }
    return p;
  }

  private @Nullable String fail() {
    failed = true;
    return null;
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  /** Characters of a bare token: numbers ({@code -1.5e-05}), {@code None}, {@code True}. */
  private static boolean isAtomChar(char c) {
    return isNameChar(c) || c == '.' || c == '-' || c == '+';
  }
}
