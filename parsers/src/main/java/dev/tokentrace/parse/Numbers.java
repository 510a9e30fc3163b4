package dev.tokentrace.parse;

import org.jspecify.annotations.Nullable;

/**
 * The one number parser of the engine parsers: numbers read straight from a range of a line,
 * without substrings on the common path. Only non-negative plain numbers are numbers here; anything
 * else (signs, {@code nan}, {@code inf}, overflow) is "not a number" for the caller to reject with
 * the field's name. Two families, by what "not a number" looks like to the caller: primitive
 * results with -1 / NaN (SGLang's hot batch lines) and boxed results with null (TensorRT-LLM).
 * Stateless.
 */
public final class Numbers {
  /** Significant digits read exactly without {@link Double#parseDouble}. */
  private static final int FAST_DIGITS = 15;

  private static final double[] POWERS_OF_TEN = {
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
  };

  private Numbers() {}

  /** {@code text[start, end)} as a non-negative int of at most 18 digits, or -1. */
  public static int count(CharSequence text, int start, int end) {
    long value = digits(text, start, end, 18);
    return value > Integer.MAX_VALUE ? -1 : (int) value;
  }

  /** {@code text[start, end)} as a non-negative long of at most 18 digits, or -1. */
  public static long longCount(CharSequence text, int start, int end) {
    return digits(text, start, end, 18);
  }

  /**
   * {@code text[start, end)} as a finite non-negative decimal ({@code 12}, {@code 0.57}: digits on
   * both sides of a point), or NaN. A trailing {@code %} is allowed and ignored (the caller knows
   * the unit).
   */
  public static double decimal(CharSequence text, int start, int end) {
    int stop = end > start && text.charAt(end - 1) == '%' ? end - 1 : end;
    if (!isPlainDecimal(text, start, stop)) {
      return Double.NaN;
    }
    double fast = exactDecimal(text, start, stop);
    if (!Double.isNaN(fast)) {
      return fast;
    }
    double value = Double.parseDouble(text.subSequence(start, stop).toString());
    return Double.isFinite(value) ? value : Double.NaN;
  }

  /** {@code text[from, to)} as a non-negative int of at most ten digits, or null. */
  public static @Nullable Integer countOrNull(CharSequence text, int from, int to) {
    // digits accumulated here: Long.parseLong(CharSequence, ...) was 40 % of print_iter_log
    // parsing in JFR (Character.digit per character)
    long value = digits(text, from, to, 10);
    return value < 0 || value > Integer.MAX_VALUE ? null : (int) value;
  }

  /** {@code text[from, to)} as a non-negative long (up to 19 digits), or null. */
  public static @Nullable Long nonNegativeLong(CharSequence text, int from, int to) {
    if (!allDigits(text, from, to, 19)) {
      return null;
    }
    try {
      return Long.parseLong(text, from, to, 10);
    } catch (NumberFormatException e) {
      // 19 digits above Long.MAX_VALUE: not an iteration number
      return null;
    }
  }

  /** A plain decimal such as {@code 0.125}, {@code 5.} or {@code 1.5e-05}; null otherwise. */
  public static @Nullable Double nonNegative(CharSequence text, int from, int to) {
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
    double fast = exactDecimal(text, from, to);
    if (!Double.isNaN(fast)) {
      return fast;
    }
    try {
      double value = Double.parseDouble(text.subSequence(from, to).toString());
      return Double.isFinite(value) && value >= 0 ? value : null;
    } catch (NumberFormatException e) {
      // "1.2.3", "1e": malformed even though every character is allowed
      return null;
    }
  }

  /** {@code 12.5ms} or {@code 0.02s}: the number times {@code scale}, or null. */
  public static @Nullable Double withUnit(
      CharSequence text, int from, int to, String unit, double scale) {
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
  public static boolean isNotAvailable(CharSequence text, int from, int to) {
    return to - from == 3
        && text.charAt(from) == 'N'
        && text.charAt(from + 1) == '/'
        && text.charAt(from + 2) == 'A';
  }

  /** One to {@code maxDigits} (at most 18) ASCII digits: their value; anything else -1. */
  private static long digits(CharSequence text, int from, int to, int maxDigits) {
    if (to <= from || to - from > Math.min(maxDigits, 18)) {
      return -1;
    }
    long value = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static boolean allDigits(CharSequence text, int from, int to, int maxDigits) {
    if (from >= to || to - from > maxDigits) {
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

  /** {@code digits[.digits]}: at least one digit, and digits on both sides of a point. */
  private static boolean isPlainDecimal(CharSequence text, int from, int to) {
    boolean point = false;
    int digits = 0;
    int scale = 0;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '.' && !point && i > from) {
        point = true;
      } else if (c >= '0' && c <= '9') {
        digits++;
        if (point) {
          scale++;
        }
      } else {
        return false;
      }
    }
    return digits > 0 && !(point && scale == 0);
  }

  /**
   * {@code digits[.digits]} with at most {@value #FAST_DIGITS} digits and a digit after a point,
   * without {@code parseDouble}: both the digits and the power of ten are exact doubles, so one
   * division gives the correctly rounded value, the same as {@code Double.parseDouble}. NaN for
   * anything else (exponents, more digits, a bare point), which takes the caller's slow path.
   */
  private static double exactDecimal(CharSequence text, int from, int to) {
    long mantissa = 0;
    int count = 0;
    int fraction = -1;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      if (c == '.' && fraction < 0) {
        fraction = 0;
      } else if (c >= '0' && c <= '9' && count < FAST_DIGITS) {
        mantissa = mantissa * 10 + (c - '0');
        count++;
        if (fraction >= 0) {
          fraction++;
        }
      } else {
        return Double.NaN;
      }
    }
    if (count == 0 || fraction == 0) {
      return Double.NaN;
    }
    return fraction < 0 ? (double) mantissa : mantissa / POWERS_OF_TEN[fraction];
  }
}
