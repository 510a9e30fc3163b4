package dev.tokentrace.simulator.output;

/**
 * Number text without {@link String#format} (too slow for millions of lines). Microsecond values
 * print exactly, so a duration written in ms or s reads back to the same microsecond.
 */
final class Decimals {
  private static final long[] POWERS = {1, 10, 100, 1000, 10_000, 100_000, 1_000_000};

  private Decimals() {}

  /** {@code value} rounded half-up to {@code decimals} places, like {@code %.Nf}. */
  static StringBuilder fixed(StringBuilder out, double value, int decimals) {
    long scaled = Math.round(Math.abs(value) * POWERS[decimals]);
    if (value < 0 && scaled != 0) {
      out.append('-');
    }
    return scaledFixed(out, scaled, decimals);
  }

  /** A fraction rounded to six decimals, printed like Python prints that float: {@code 0.25}. */
  static StringBuilder sixDecimals(StringBuilder out, double value) {
    return shortest(out, Math.round(value * POWERS[6]), 6);
  }

  /** Microseconds as milliseconds with exactly three decimals: {@code 1234567 -> 1234.567}. */
  static StringBuilder millis(StringBuilder out, long us) {
    if (us < 0) {
      out.append('-');
      us = -us;
    }
    return scaledFixed(out, us, 3);
  }

  /**
   * Microseconds as seconds in the shortest form that reads back exactly, with at least one decimal
   * ({@code 84100 -> 0.0841}, {@code 2000000 -> 2.0}): Python's {@code repr} of the value.
   */
  static StringBuilder seconds(StringBuilder out, long us) {
    return shortest(out, us, 6);
  }

  /**
   * Microseconds as milliseconds, shortest form with at least one decimal ({@code 12300 -> 12.3}).
   */
  static StringBuilder shortMillis(StringBuilder out, long us) {
    return shortest(out, us, 3);
  }

  private static StringBuilder shortest(StringBuilder out, long scaled, int decimals) {
    if (scaled < 0) {
      out.append('-');
      scaled = -scaled;
    }
    long power = POWERS[decimals];
    out.append(scaled / power).append('.');
    long fraction = scaled % power;
    if (fraction == 0) {
      return out.append('0');
    }
    int digits = decimals;
    while (fraction % 10 == 0) {
      fraction /= 10;
      digits--;
    }
    for (long limit = POWERS[digits - 1]; limit > fraction; limit /= 10) {
      out.append('0');
    }
    return out.append(fraction);
  }

  /** Microseconds as seconds with exactly six decimals (steady-clock and epoch seconds). */
  static StringBuilder secondsFixed(StringBuilder out, long us) {
    if (us < 0) {
      out.append('-');
      us = -us;
    }
    return scaledFixed(out, us, 6);
  }

  private static StringBuilder scaledFixed(StringBuilder out, long scaled, int decimals) {
    if (decimals == 0) {
      return out.append(scaled);
    }
    long power = POWERS[decimals];
    out.append(scaled / power).append('.');
    long fraction = scaled % power;
    for (long limit = power / 10; limit > fraction && limit > 1; limit /= 10) {
      out.append('0');
    }
    return out.append(fraction);
  }
}
