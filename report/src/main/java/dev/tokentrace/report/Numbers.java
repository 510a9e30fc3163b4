package dev.tokentrace.report;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** How reports print numbers: locale-free, fixed decimals, "n/a" for a missing value. */
final class Numbers {
  private Numbers() {}

  /** Milliseconds with one decimal: {@code 65.0}. */
  static String ms(@Nullable Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }

  /** A fraction as a percentage with one decimal: {@code 0.571 -> 57.1%}. */
  static String share(@Nullable Double fraction) {
    return fraction == null ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  /** A percentage change with its sign: {@code +36.4%}. */
  static String change(@Nullable Double percent) {
    return percent == null ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", percent);
  }

  /** A percentage already in percent: {@code 83.3%}. */
  static String percent(@Nullable Double percent) {
    return percent == null ? "n/a" : String.format(Locale.ROOT, "%.1f%%", percent);
  }

  /**
   * A rate or duration with the decimals its size needs: {@code 0.43}, {@code 12.5}, {@code 3562}.
   */
  static String rate(@Nullable Double value) {
    if (value == null) {
      return "n/a";
    }
    double size = Math.abs(value);
    String format = size >= 100 ? "%.0f" : size >= 1 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, format, value);
  }
}
