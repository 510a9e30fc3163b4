package dev.tokentrace.correlate.report;

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
}
