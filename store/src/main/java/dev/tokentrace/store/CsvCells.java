package dev.tokentrace.store;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Cells of the CSV files tokentrace writes for people to open ({@code correlate --out
 * attribution.csv}, {@code sql --format csv}), safe from formula injection: a text cell that a
 * spreadsheet would read as a formula (it starts with {@code =}, {@code +}, {@code -}, {@code @}, a
 * tab, a carriage return or NUL) gets a leading single quote, as OWASP recommends
 * (docs/privacy.md#csv-cells). Numbers (a value of a numeric column, or text that is a plain number
 * such as {@code -3.5}) are never changed: they are no formula. Only the printed cell changes; the
 * tables and the lake keep the raw value. Pure and thread-safe.
 */
public final class CsvCells {
  /** A plain decimal number, possibly negative, possibly with an exponent. */
  private static final Pattern NUMBER = Pattern.compile("[-+]?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?");

  private CsvCells() {}

  /** The value as {@link SqlValues#text} prints it (all decimals), neutralised if it is text. */
  public static String cell(@Nullable Object value) {
    String text = SqlValues.text(value, -1);
    return value instanceof CharSequence ? neutralise(text) : text;
  }

  /** {@code text} with a leading {@code '} when a spreadsheet would take it for a formula. */
  public static String neutralise(String text) {
    if (text.isEmpty() || !isTrigger(text.charAt(0)) || NUMBER.matcher(text).matches()) {
      return text;
    }
    return "'" + text;
  }

  private static boolean isTrigger(char c) {
    return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' || c == '\0';
  }
}
