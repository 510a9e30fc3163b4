package dev.tokentrace.parse.trtllm;

import org.jspecify.annotations.Nullable;

/**
 * Strict number parsing over a range of a line, without substrings for integers. Every method
 * returns null for text that is not a finite, non-negative number of the expected kind, so that the
 * caller can reject the line with the field's name. Python prints {@code nan}/{@code inf} for
 * broken floats; those are rejected too.
 */
final class Numbers {
  private Numbers() {}

  static @Nullable Integer count(CharSequence text, int from, int to) {
    if (from >= to || to - from > 10) {
      return null;
    }
    // digits accumulated here: Long.parseLong(CharSequence, ...) was 40 % of print_iter_log
    // parsing in JFR (Character.digit per character); ten digits cannot overflow a long
    long value = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return null;
      }
      value = value * 10 + (c - '0');
    }
    return value > Integer.MAX_VALUE ? null : (int) value;
  }

  static @Nullable Long nonNegativeLong(CharSequence text, int from, int to) {
    if (!allDigits(text, from, to) || to - from > 19) {
      return null;
    }
    try {
      return Long.parseLong(text, from, to, 10);
    } catch (NumberFormatException e) {
      // 19 digits above Long.MAX_VALUE: not an iteration number
      return null;
    }
  }

  /** A plain decimal such as {@code 0.125} or {@code 1.5e-05}; null otherwise. */
  static @Nullable Double nonNegative(CharSequence text, int from, int to) {
    if (from >= to || to - from > 64) {
      return null;
    }
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      boolean allowed =
          (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+';
      if (!allowed) {
        return null;
      }
    }
    char first = text.charAt(from);
    if (first < '0' || first > '9') {
      return null;
    }
    Double simple = simpleDecimal(text, from, to);
    if (simple != null) {
      return simple;
    }
    try {
      double value = Double.parseDouble(text.subSequence(from, to).toString());
      return Double.isFinite(value) && value >= 0 ? value : null;
    } catch (NumberFormatException e) {
      // "1.2.3", "1e": malformed even though every character is allowed
      return null;
    }
  }

  private static final double[] TENS = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  /**
   * {@code digits[.digits]} with at most 15 significant digits, without {@code parseDouble}: both
   * the digits and the power of ten are exact doubles, so one division gives the correctly rounded
   * value, the same as {@code Double.parseDouble}. Null for anything else (exponents, long
   * fractions), which takes the slow path.
   */
  private static @Nullable Double simpleDecimal(CharSequence text, int from, int to) {
    long digits = 0;
    int count = 0;
    int fraction = -1;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '.' && fraction < 0) {
        fraction = 0;
      } else if (c >= '0' && c <= '9' && count < 15) {
        digits = digits * 10 + (c - '0');
        count++;
        if (fraction >= 0) {
          fraction++;
        }
      } else {
        return null;
      }
    }
    if (fraction == 0) {
      return null;
    }
    return fraction < 0 ? (double) digits : digits / TENS[fraction];
  }

  /** {@code 12.5ms} or {@code 0.02s}: the number times {@code scale}, or null. */
  static @Nullable Double withUnit(CharSequence text, int from, int to, String unit, double scale) {
    int numberEnd = to - unit.length();
    if (numberEnd <= from || !unit.contentEquals(text.subSequence(numberEnd, to))) {
      return null;
    }
    Double value = nonNegative(text, from, numberEnd);
    if (value == null) {
      return null;
    }
    double scaled = value * scale;
    return Double.isFinite(scaled) ? scaled : null;
  }

  /** Python's placeholder for a value that does not exist yet, e.g. the first device time. */
  static boolean isNotAvailable(CharSequence text, int from, int to) {
    return to - from == 3
        && text.charAt(from) == 'N'
        && text.charAt(from + 1) == '/'
        && text.charAt(from + 2) == 'A';
  }

  private static boolean allDigits(CharSequence text, int from, int to) {
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
