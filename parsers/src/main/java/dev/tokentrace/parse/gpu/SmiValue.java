package dev.tokentrace.parse.gpu;

import org.jspecify.annotations.Nullable;

/**
 * One value cell of nvidia-smi output: a number with or without its unit ({@code 45 %}, {@code 1024
 * MiB}, {@code 70.50 W}), a placeholder for a value the GPU cannot give ({@code [N/A]}, {@code [Not
 * Supported]}, {@code [Unknown Error]}, {@code [GPU requires reset]}, dmon's {@code -}), or garbage
 * (docs/formats/gpu.md#values).
 *
 * @param number the value, or null
 * @param unavailable the placeholder as printed, or null
 * @param bad why the cell is neither, or null
 */
record SmiValue(@Nullable Double number, @Nullable String unavailable, @Nullable String bad) {
  private static final String[] UNITS = {"%", "MiB", "MB", "W", "MHz", "C"};

  static SmiValue of(String cell) {
    String text = cell.strip();
    if (text.isEmpty()) {
      return new SmiValue(null, "empty", null);
    }
    if (text.startsWith("[") && text.endsWith("]")) {
      return new SmiValue(null, text, null);
    }
    if (text.equals("N/A") || text.equals("-")) {
      return new SmiValue(null, text, null);
    }
    String number = withoutUnit(text);
    Double value = decimal(number);
    if (value == null) {
      return new SmiValue(null, null, "bad number '" + text + "'");
    }
    return new SmiValue(value, null, null);
  }

  private static String withoutUnit(String text) {
    int space = text.lastIndexOf(' ');
    if (space > 0) {
      String unit = text.substring(space + 1);
      for (String known : UNITS) {
        if (known.equals(unit)) {
          return text.substring(0, space).strip();
        }
      }
    }
    return text;
  }

  /**
   * A plain decimal; one decimal comma ({@code 12,5}) is read as a decimal point, as a locale that
   * writes decimal commas prints it (docs/formats/gpu.md#decimal-commas). NaN, Inf and anything
   * else are null.
   */
  static @Nullable Double decimal(String text) {
    String number = text;
    int comma = number.indexOf(',');
    if (comma >= 0) {
      if (number.indexOf('.') >= 0 || number.indexOf(',', comma + 1) >= 0) {
        return null;
      }
      number = number.replace(',', '.');
    }
    if (number.isEmpty()) {
      return null;
    }
    for (int i = 0; i < number.length(); i++) {
      char c = number.charAt(i);
      boolean sign = i == 0 && c == '-';
      if (!sign && !(c >= '0' && c <= '9') && c != '.') {
        return null;
      }
    }
    try {
      double value = Double.parseDouble(number);
      return Double.isFinite(value) ? value : null;
    } catch (NumberFormatException e) {
      return null; // "1.2.3": malformed though every character is allowed
    }
  }
}
