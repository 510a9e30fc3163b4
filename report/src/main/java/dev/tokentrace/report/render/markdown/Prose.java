package dev.tokentrace.report.render.markdown;

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
}
