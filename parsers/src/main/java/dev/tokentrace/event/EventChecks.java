package dev.tokentrace.event;

import org.jspecify.annotations.Nullable;

/** Validation shared by the event records' compact constructors; messages name the field. */
final class EventChecks {
  private EventChecks() {}

  static void nonNegative(String field, @Nullable Number value) {
    if (value != null && value.doubleValue() < 0) {
      throw new IllegalArgumentException(field + " must be >= 0: " + value);
    }
  }

  /** Durations may be negative in real exports (clock skew); NaN and infinities never are data. */
  static void finite(String field, @Nullable Double value) {
    if (value != null && !Double.isFinite(value)) {
      throw new IllegalArgumentException(field + " must be finite: " + value);
    }
  }

  static void nonNegativeFinite(String field, @Nullable Double value) {
    finite(field, value);
    nonNegative(field, value);
  }

  static void notBlank(String field, String value) {
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + " is blank");
    }
  }

  /** Caps free text (notice messages, abort reasons) so one event stays small. */
  static String cap(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
