package dev.tokentrace.report.model;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One row of the baseline comparison: the same metric read from both databases by the same SQL.
 * Unit ms, /s, count or share (a fraction); delta = current - baseline, change = delta / baseline.
 */
public record BaselineRow(
    String metric, String stat, String unit, @Nullable Double current, @Nullable Double baseline) {
  public @Nullable Double delta() {
    return current == null || baseline == null ? null : current - baseline;
  }

  public @Nullable Double changePct() {
    return current == null || baseline == null || baseline == 0
        ? null
        : 100.0 * (current / baseline - 1);
  }

  /** A value of this row in its unit: {@code 57.1%}, {@code 65.0 ms}, {@code 12}, {@code 3.5}. */
  public String shown(@Nullable Double value) {
    switch (unit) {
      case "share":
        return Numbers.share(value);
      case "ms":
        return value == null ? "n/a" : Numbers.ms(value) + " ms";
      case "count":
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
      default:
        return Numbers.rate(value);
    }
  }

  /** The delta with its sign and unit: {@code +1.5 pp}, {@code -3.0 ms}. */
  public String shownDelta() {
    Double delta = delta();
    if (delta == null) {
      return "n/a";
    }
    switch (unit) {
      case "share":
        return String.format(Locale.ROOT, "%+.1f pp", 100 * delta);
      case "ms":
        return String.format(Locale.ROOT, "%+.1f ms", delta);
      case "count":
        return String.format(Locale.ROOT, "%+.0f", delta);
      default:
        return (delta >= 0 ? "+" : "") + Numbers.rate(delta);
    }
  }

  /** The change in percent, empty for shares (their delta is in points already). */
  public String shownChange() {
    return unit.equals("share") ? "" : Numbers.change(changePct());
  }
}
