package dev.tokentrace.event;

import java.util.regex.Pattern;

/**
 * What a server's instance name may be: 1 to 100 letters, digits, {@code .}, {@code _}, {@code :}
 * and {@code -}, starting with a letter or digit (the rule of run ids). It is stamped on every
 * event and printed in every report, so no newline, control character or markup gets in. Names a
 * user gives are checked; names taken from a directory or file name are made to fit.
 */
public final class InstanceNames {
  public static final Pattern PATTERN = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0,99}");
  public static final int MAX_LENGTH = 100;
  public static final String RULE =
      "1-100 letters, digits, '.', '_', ':' or '-', starting with a letter or digit";

  private InstanceNames() {}

  /**
   * @throws IllegalArgumentException naming the rule and the name (control characters escaped)
   */
  public static String check(String name) {
    if (!PATTERN.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "instance name must be " + RULE + ": \"" + printable(name) + "\"");
    }
    return name;
  }

  /** {@code name} made to fit: other characters become {@code _}, cut to the maximum length. */
  public static String fit(String name) {
    String replaced = name.replaceAll("[^A-Za-z0-9._:-]", "_");
    if (replaced.isEmpty() || !Character.isLetterOrDigit(replaced.charAt(0))) {
      replaced = "i" + replaced;
    }
    return replaced.length() <= MAX_LENGTH ? replaced : replaced.substring(0, MAX_LENGTH);
  }

  /** For messages: control characters as {@code \\uXXXX}, at most 120 characters. */
  static String printable(String name) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < name.length() && out.length() < 120; i++) {
      char c = name.charAt(i);
      if (Character.isISOControl(c)) {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
