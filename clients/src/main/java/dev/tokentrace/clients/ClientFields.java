package dev.tokentrace.clients;

import dev.tokentrace.event.Redaction;
import java.util.Locale;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Strict parsing of client-file values. Numbers are plain decimals: {@link Double#parseDouble}
 * alone would also take {@code NaN}, {@code Infinity}, hex floats and a trailing {@code d}.
 */
final class ClientFields {
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
  private static final Pattern COUNT = Pattern.compile("\\+?\\d{1,10}");
  private static final int MAX_QUOTED = 40;
  private static final int MAX_ERROR = 120;

  private ClientFields() {}

  /** A duration in ms, null when empty; never negative or non-finite. */
  static @Nullable Double duration(String column, String raw) throws BadField {
    String text = raw.strip();
    if (text.isEmpty()) {
      return null;
    }
    if (!DECIMAL.matcher(text).matches()) {
      throw new BadField("bad '" + column + "' value " + quote(raw));
    }
    double value = Double.parseDouble(text);
    if (!Double.isFinite(value)) {
      throw new BadField("bad '" + column + "' value " + quote(raw));
    }
    if (value < 0) {
      throw new BadField("negative '" + column + "' value " + quote(raw));
    }
    if (value > ClientRow.MAX_DURATION_MS) {
      throw new BadField(
          "implausible '" + column + "' value " + quote(raw) + " (longer than 7 days)");
    }
    return value;
  }

  /** A non-negative integer count, null when empty. */
  static @Nullable Integer count(String column, String raw) throws BadField {
    String text = raw.strip();
    if (text.isEmpty()) {
      return null;
    }
    if (text.startsWith("-") && COUNT.matcher(text.substring(1)).matches()) {
      throw new BadField("negative '" + column + "' value " + quote(raw));
    }
    if (!COUNT.matcher(text).matches() || Long.parseLong(text) > Integer.MAX_VALUE) {
      throw new BadField("bad '" + column + "' value " + quote(raw));
    }
    return Integer.valueOf(text.startsWith("+") ? text.substring(1) : text);
  }

  /** A value that must be present. */
  static <T> T required(String column, @Nullable T value) throws BadField {
    if (value == null) {
      throw new BadField("missing value for '" + column + "'");
    }
    return value;
  }

  /** A boolean flag: true/false, 1/0, yes/no (any case); empty is false. */
  static boolean flag(String column, String raw) throws BadField {
    switch (raw.strip().toLowerCase(Locale.ROOT)) {
      case "":
      case "false":
      case "0":
      case "no":
        return false;
      case "true":
      case "1":
      case "yes":
        return true;
      default:
        throw new BadField("bad '" + column + "' value " + quote(raw));
    }
  }

  /** {@value ClientTiming#STATUS_OK} for empty, ok, success or 200; otherwise the client's text. */
  static String status(String raw) {
    String text = raw.strip();
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.isEmpty() || lower.equals("ok") || lower.equals("success") || lower.equals("200")) {
      return ClientTiming.STATUS_OK;
    }
    return text.length() <= 200 ? text : text.substring(0, 199) + "…";
  }

  /**
   * {@code error: <text>} for a failed request: the last non-blank line of the client's error (a
   * Python traceback ends with the exception), shortened to {@value #MAX_ERROR} characters.
   */
  static String errorStatus(String text) {
    String last = "";
    // redacted as a whole first: a prompt quoted in the error may span its lines
    for (String line : Redaction.apply(text).split("\\R")) {
      if (!line.isBlank()) {
        last = line.strip();
      }
    }
    if (last.isEmpty()) {
      last = "failed";
    }
    String shortened = last.length() <= MAX_ERROR ? last : last.substring(0, MAX_ERROR - 1) + "…";
    return "error: " + shortened;
  }

  /** A value for a message: in double quotes, shortened. */
  static String quote(String raw) {
    String text = raw.length() <= MAX_QUOTED ? raw : raw.substring(0, MAX_QUOTED - 1) + "…";
    return '"' + text + '"';
  }
}
