package dev.tokentrace.simulator;

/** Argument checks for the settings records; messages name the field. */
final class Checks {
  private Checks() {}

  static void check(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException(message);
    }
  }

  static void positive(String field, long value) {
    check(value > 0, field + " must be > 0: " + value);
  }

  static void nonNegative(String field, long value) {
    check(value >= 0, field + " must be >= 0: " + value);
  }

  static void nonNegative(String field, double value) {
    check(Double.isFinite(value) && value >= 0, field + " must be >= 0: " + value);
  }
}
