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
      if (!lineStart && column + 1 + word.length() > WIDTH && !startsBlock(word)) {
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
   * Whether a word at the start of a line would open a Markdown block (a heading, quote, list item,
   * table row, setext underline or HTML block): log text can hold such a word, and a line break
   * before it would turn it into markup even inside a code span, so it stays on the line before.
   */
  static boolean startsBlock(String word) {
    char first = word.charAt(0);
    if (">|<".indexOf(first) >= 0) {
      return true; // a quote, a table row, an HTML block
    }
    if ("-+*=#_".indexOf(first) >= 0 && word.chars().allMatch(c -> c == first)) {
      return true; // a list item, a heading, a setext underline or a thematic break
    }
    // inside a paragraph only an ordered list starting at 1 opens a block (CommonMark 5.2)
    return word.equals("1.") || word.equals("1)");
  }

  /**
   * A sentence continued after a comma: "TTFT P50 goes" stays, "Only concurrency" becomes "only".
   */
  static String uncapitalized(String text) {
    if (text.length() > 1 && Character.isUpperCase(text.charAt(1))) {
      return text;
    }
    return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
  }
}
