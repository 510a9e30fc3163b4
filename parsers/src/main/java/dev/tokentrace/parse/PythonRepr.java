package dev.tokentrace.parse;

import org.jspecify.annotations.Nullable;

/**
 * The one lexer of Python literals ({@code repr} output) in engine logs. As a pull reader (an
 * instance) it reads the text SGLang prints for request objects: dataclass reprs {@code
 * GenerateReqInput(rid='a', ...)}, dicts with quoted ({@code 'k': v}, v0.4.1.post7+) or bare
 * ({@code k: v}, v0.4.1 – v0.4.1.post6) keys, lists, strings in either quote style with backslash
 * escapes, numbers, {@code None}, and the truncation form {@code 'first' ... 'last'}
 * (docs/formats/sglang.md#request-lines).
 *
 * <p>Values the caller does not ask for are skipped by a bracket-depth scan that is aware of
 * strings, so prompt text is never copied and nesting depth cannot overflow the stack. Only the
 * strings the caller reads (a rid, a finish type) are materialized. Any syntax the reader cannot
 * follow sets {@link #failed()}; it never throws. Not thread-safe; one per line.
 *
 * <p>Its static methods skip values by position without reading them, for vLLM's request lines
 * (docs/formats/vllm.md#request-lines): quoted strings (prompt and output text, user data never
 * kept), bracketed lists and calls such as {@code SamplingParams(...)}; all linear, so a request
 * line with a multi-megabyte prompt costs one pass. Both use the same quoting and bracket rules.
 *
 * <p>Longer than the house target on purpose: it is one small lexer, and splitting the quoting and
 * bracket rules across classes would hide how they interact.
 */
public final class PythonRepr {
  /** Returned by the static methods when the value does not end on this line (cut, or no repr). */
  public static final int UNTERMINATED = -1;

  /** What {@link #readScalar} found. */
  public enum Scalar {
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

  public PythonRepr(String text, int start) {
    this.text = text;
    this.pos = start;
  }

  public boolean failed() {
    return failed;
  }

  public int position() {
    return pos;
  }

  public double number() {
    return number;
  }

  public @Nullable String string() {
    return string;
  }

  /** Consumes {@code literal} after optional spaces; false (nothing consumed) when absent. */
  public boolean accept(String literal) {
    int p = skipSpaces(pos);
    if (text.startsWith(literal, p)) {
      pos = p + literal.length();
      return true;
    }
    return false;
  }

  /** True when only spaces are left. */
  public boolean atEnd() {
    return skipSpaces(pos) >= text.length();
  }

  /** True when the next non-space character is {@code c}; consumes nothing. */
  public boolean peek(char c) {
    int p = skipSpaces(pos);
    return p < text.length() && text.charAt(p) == c;
  }

  /** Opens {@code Name(}; false and failed when the value is not a call. */
  public boolean openCall() {
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
  public boolean openDict() {
    return open('{');
  }

  /** Opens a list; false (not failed) when the value is not one. */
  public boolean openList() {
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
  public @Nullable String nextKey() {
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
  public boolean nextItem() {
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
  public Scalar readScalar() {
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
  public void skipValue() {
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

  private int stringEnd(int start) {
    return stringEnd(text, start);
  }

  /**
   * Index after the closing quote of the string whose opening quote is at {@code start} (a
   * backslash escapes the next character), or -1 when it does not end in {@code text}.
   */
  private static int stringEnd(String text, int start) {
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

  /** The end of a quoted string starting at {@code at} ({@code '...'} or {@code "..."}). */
  public static int skipString(String text, int at) {
    if (at >= text.length()) {
      return UNTERMINATED;
    }
    char quote = text.charAt(at);
    if (quote != '\'' && quote != '"') {
      return UNTERMINATED;
    }
    int end = stringEnd(text, at);
    return end < 0 ? UNTERMINATED : end;
  }

  /** The end of a string or {@code None} at {@code at}. */
  public static int skipStringOrNone(String text, int at) {
    if (text.startsWith("None", at)) {
      return at + 4;
    }
    return skipString(text, at);
  }

  /**
   * The end of the bracketed value opening at {@code at} ({@code (}, {@code [} or <code>{</code>),
   * skipping quoted strings inside it.
   */
  public static int skipBracketed(String text, int at) {
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
  public static int skipCall(String text, int at) {
    int cursor = at;
    while (cursor < text.length() && isCallNameChar(text.charAt(cursor))) {
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
  public static int countElements(String text, int at, int end) {
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

  /** ASCII letters, digits, {@code _} and {@code .}: a (dotted) callable's name. */
  private static boolean isCallNameChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '_'
        || c == '.';
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
