package dev.tokentrace.parse.vllm;

/**
 * ASCII character tests and fixed-width number reads. {@link Character#isDigit} is not used because
 * it accepts every Unicode digit, and vLLM prints only ASCII ones.
 */
final class Ascii {
  /** What a decoder writes for bytes that are not UTF-8. */
  static final char REPLACEMENT = '\uFFFD';

  private Ascii() {}

  static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  static boolean isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }

  /** The end of the run of digits starting at {@code from} (= from when there is none). */
  static int digitsEnd(String text, int from) {
    int at = from;
    while (at < text.length() && isDigit(text.charAt(at))) {
      at++;
    }
    return at;
  }

  /**
   * The end of the dotted Python name ({@code torch.OutOfMemoryError}) starting at {@code from};
   * from when there is none.
   */
  static int identifierEnd(String text, int from) {
    if (from >= text.length() || !(isLetter(text.charAt(from)) || text.charAt(from) == '_')) {
      return from;
    }
    int at = from + 1;
    while (at < text.length()) {
      char c = text.charAt(at);
      if (!(isLetter(c) || isDigit(c) || c == '_' || c == '.')) {
        break;
      }
      at++;
    }
    return at;
  }

  /** The two-digit number at {@code at}, or -1. */
  static int twoDigits(String text, int at) {
    if (at + 1 >= text.length()) {
      return -1;
    }
    char tens = text.charAt(at);
    char ones = text.charAt(at + 1);
    return isDigit(tens) && isDigit(ones) ? (tens - '0') * 10 + (ones - '0') : -1;
  }

  /** True when {@code text[from, to)} holds a replacement character (invalid UTF-8 input). */
  static boolean hasReplacement(String text, int from, int to) {
    int found = text.indexOf(REPLACEMENT, from);
    return found >= 0 && found < to;
  }
}
