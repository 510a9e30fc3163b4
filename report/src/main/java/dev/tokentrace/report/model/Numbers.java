package dev.tokentrace.report.model;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How reports print numbers, for every renderer and the analysis alike: locale-free, fixed
 * decimals, "n/a" for a missing value.
 */
public final class Numbers {
  private Numbers() {}

  /** Milliseconds with one decimal: {@code 65.0}. */
  public static String ms(@Nullable Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }

  /** A fraction as a percentage with one decimal: {@code 0.571 -> 57.1%}. */
  public static String share(@Nullable Double fraction) {
    return fraction == null ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  /** A percentage change with its sign: {@code +36.4%}. */
  public static String change(@Nullable Double percent) {
    return percent == null ? "n/a" : String.format(Locale.ROOT, "%+.1f%%", percent);
  }

  /** A percentage already in percent: {@code 83.3%}. */
  public static String percent(@Nullable Double percent) {
    return percent == null ? "n/a" : String.format(Locale.ROOT, "%.1f%%", percent);
  }

  /**
   * A rate or duration with the decimals its size needs: {@code 0.43}, {@code 12.5}, {@code 3562}.
   */
  public static String rate(@Nullable Double value) {
    if (value == null) {
      return "n/a";
    }
    double size = Math.abs(value);
    String format = size >= 100 ? "%.0f" : size >= 1 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, format, value);
  }

  /** {@code 1 request}, {@code 2 requests}. */
  public static String count(long count, String noun) {
    return String.format(Locale.ROOT, "%d %s%s", count, noun, count == 1 ? "" : "s");
  }

  /** A setting as typed: {@code 5} for 5.0, {@code 0.5} otherwise. */
  public static String plain(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  /**
   * A signed clock offset in the unit a person reads: {@code +1.1 ms}, {@code -2.5 s}, {@code +1.0
   * h} (3600 s), {@code -20374.6 days}. Large offsets (steady clocks, time zones) stay readable.
   */
  public static String offset(double ms) {
    double size = Math.abs(ms);
    if (size < 1_000) {
      return String.format(Locale.ROOT, "%+.1f ms", ms);
    }
    if (size < 120_000) {
      return String.format(Locale.ROOT, "%+.2f s", ms / 1_000);
    }
    if (size < 7_200_000) {
      return String.format(Locale.ROOT, "%+.1f min", ms / 60_000);
    }
    if (size < 172_800_000) {
      return String.format(Locale.ROOT, "%+.2f h", ms / 3_600_000);
    }
    return String.format(Locale.ROOT, "%+.1f days", ms / 86_400_000);
  }
}
