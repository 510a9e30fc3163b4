package dev.tokentrace.report;

/**
 * Log-derived text in Markdown prose: as a code span, so a renderer shows markup characters (HTML
 * tags, emphasis, links) as typed instead of interpreting them; backticks and line breaks, which
 * would end or split the span, are replaced.
 */
final class MarkdownText {
  /** Longer log text is cut (with an ellipsis) in prose; tables and queries have the whole. */
  static final int MAX_PROSE = 160;

  private MarkdownText() {}

  /** A code span of at most {@link #MAX_PROSE} characters. */
  static String code(String text) {
    String clean = clean(text);
    if (clean.length() > MAX_PROSE) {
      clean = clean.substring(0, MAX_PROSE - 1) + "…";
    }
    return "`" + clean + "`";
  }

  /** A code span of the whole text (commands, parameters, paths of the appendix). */
  static String whole(String text) {
    return "`" + clean(text) + "`";
  }

  private static String clean(String text) {
    return text.replace('`', '\'').replace('\r', ' ').replace('\n', ' ');
  }
}
