package dev.tokentrace.parse.vllm;

/**
 * Reads the numbers vLLM formats with {@code %d} and {@code %.1f}: plain ASCII digits with an
 * optional fraction, never a sign or an exponent. Short values are converted without {@link
 * Double#parseDouble} (they are the hot path of stats lines) and give the same double: a mantissa
 * below 2^53 divided by an exact power of ten is correctly rounded.
 */
final class Decimals {
  /** Returned for text that is not a number of the expected form. */
  static final double INVALID = -1;

  /** Returned for Python's {@code nan}. */
  static final double NAN = Double.NaN;

  /** Returned by {@link #integer} for text that is not a non-negative int. */
  static final int INVALID_INT = -1;

  private static final double[] POWERS = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  private Decimals() {}

  /**
   * {@code [0-9]+(\.[0-9]+)?} or {@code nan} in {@code text[from, to)}: the value, {@link #NAN} for
   * nan, {@link #INVALID} otherwise (valid values are never negative).
   */
  static double decimal(String text, int from, int to) {
    if (to - from == 3 && text.startsWith("nan", from)) {
      return NAN;
    }
    int dot = -1;
    long mantissa = 0;
    for (int at = from; at < to; at++) {
      char c = text.charAt(at);
      if (c == '.' && dot < 0 && at > from && at < to - 1) {
        dot = at;
      } else if (Ascii.isDigit(c)) {
        mantissa = mantissa * 10 + (c - '0');
      } else {
        return INVALID;
      }
    }
    if (to == from) {
      return INVALID;
    }
    int digits = to - from - (dot < 0 ? 0 : 1);
    if (digits > 15) {
      double value = Double.parseDouble(text.substring(from, to));
      return Double.isFinite(value) ? value : INVALID;
    }
    return dot < 0 ? mantissa : mantissa / POWERS[to - dot - 1];
  }

  /** {@code [0-9]+} that fits a long (OTLP's 64-bit decimal strings), else -1. */
  static long longValue(String text) {
    int length = text.length();
    if (length == 0 || length > 19 || Ascii.digitsEnd(text, 0) != length) {
      return -1;
    }
    if (length == 19 && text.compareTo(String.valueOf(Long.MAX_VALUE)) > 0) {
      return -1;
    }
    return Long.parseLong(text);
  }

  /** {@code [0-9]+} in {@code text[from, to)} that fits an int, else {@link #INVALID_INT}. */
  static int integer(String text, int from, int to) {
    if (to == from || to - from > 10) {
      return INVALID_INT;
    }
    long value = 0;
    for (int at = from; at < to; at++) {
      char c = text.charAt(at);
      if (!Ascii.isDigit(c)) {
        return INVALID_INT;
      }
      value = value * 10 + (c - '0');
    }
    return value <= Integer.MAX_VALUE ? (int) value : INVALID_INT;
  }
}
