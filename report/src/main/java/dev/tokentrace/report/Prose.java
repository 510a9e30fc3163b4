package dev.tokentrace.report;

import java.util.Locale;

/**
 * Report prose for a terminal: paragraphs and bullets wrapped at {@link #WIDTH} columns, plurals.
 */
final class Prose {
  static final int WIDTH = 100;

  private Prose() {}

  /** A paragraph wrapped at word boundaries, ending with a blank line. */
  static String paragraph(String text) {
    return wrap(text, "", "") + "\n";
  }

  /** A Markdown bullet, continuation lines indented under its text. */
  static String bullet(String text) {
    return wrap(text, "- ", "  ");
  }

  /** {@code 1 request}, {@code 2 requests}. */
  static String count(long count, String noun) {
    return String.format(Locale.ROOT, "%d %s%s", count, noun, count == 1 ? "" : "s");
  }

  private static String wrap(String text, String first, String rest) {
    StringBuilder out = new StringBuilder(first);
    int column = first.length();
    boolean lineStart = true;
    for (String word : text.split(" ")) {
      if (word.isEmpty()) {
        continue;
      }
      if (!lineStart && column + 1 + word.length() > WIDTH) {
        out.append('\n').append(rest);
        column = rest.length();
        lineStart = true;
      }
      if (!lineStart) {
        out.append(' ');
        column++;
      }
      out.append(word);
      column += word.length();
      lineStart = false;
    }
    return out.append('\n').toString();
  }

  /**
   * A sentence continued after a comma: "FTL P50 goes" stays, "Only concurrency" becomes "only".
   */
  static String uncapitalized(String text) {
    if (text.length() > 1 && Character.isUpperCase(text.charAt(1))) {
      return text;
    }
    return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
  }
}
