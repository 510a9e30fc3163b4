package dev.tokentrace.parse.sglang;

/**
 * Reads the plain numbers SGLang prints with {@code {n}} and {@code {x:.2f}} by scanning, without
 * allocating: non-negative integers and decimals. Anything else (signs, exponents, {@code nan},
 * {@code inf}, overflow) is "not a number" and left to the caller to reject. Stateless.
 */
final class Numbers {
  /** Digits beyond this are read with {@link Double#parseDouble} to stay correctly rounded. */
  private static final int FAST_DIGITS = 15;

  private static final double[] POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  private Numbers() {}

  /** {@code text[start, end)} as a non-negative int, or -1. */
  static int count(CharSequence text, int start, int end) {
    long value = longCount(text, start, end);
    return value > Integer.MAX_VALUE ? -1 : (int) value;
  }

  /** {@code text[start, end)} as a non-negative long of at most 18 digits, or -1. */
  static long longCount(CharSequence text, int start, int end) {
    if (end <= start || end - start > 18) {
      return -1;
    }
    long value = 0;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  /**
   * {@code text[start, end)} as a finite non-negative decimal ({@code 12}, {@code 0.57}), or NaN. A
   * trailing {@code %} is allowed and ignored (the caller knows the unit).
   */
  static double decimal(CharSequence text, int start, int end) {
    int stop = end > start && text.charAt(end - 1) == '%' ? end - 1 : end;
    long mantissa = 0;
    int digits = 0;
    int scale = 0;
    boolean point = false;
    for (int i = start; i < stop; i++) {
      char c = text.charAt(i);
      if (c == '.' && !point && i > start) {
        point = true;
      } else if (c >= '0' && c <= '9') {
        if (digits < 18) {
          mantissa = mantissa * 10 + (c - '0');
        }
        digits++;
        if (point) {
          scale++;
        }
      } else {
        return Double.NaN;
      }
    }
    if (digits == 0 || (point && scale == 0)) {
      return Double.NaN;
    }
    if (digits <= FAST_DIGITS) {
      // both operands are exact doubles, so the quotient is correctly rounded like parseDouble
      return mantissa / POWERS_OF_TEN[scale];
    }
    double value = Double.parseDouble(text.subSequence(start, stop).toString());
    return Double.isFinite(value) ? value : Double.NaN;
  }
}
