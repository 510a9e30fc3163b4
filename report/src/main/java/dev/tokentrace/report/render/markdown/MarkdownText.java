package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Text;

/**
 * Report text in Markdown prose: code as a code span, so a renderer shows markup characters (HTML
 * tags, emphasis, links) as typed instead of interpreting them; backticks and line breaks, which
 * would end or split the span, are replaced.
 */
final class MarkdownText {
  private MarkdownText() {}

  /** The text with its code as code spans. */
  static String of(Text text) {
    StringBuilder out = new StringBuilder();
    for (Inline part : text.parts()) {
      if (part instanceof Inline.Code code) {
        out.append('`').append(clean(code.text())).append('`');
      } else {
        out.append(part.text());
      }
    }
    return out.toString();
  }

  /** A code span of at most {@link Inline#MAX_PROSE} characters. */
  static String code(String text) {
    return of(Text.of(Inline.code(text)));
  }

  /** A code span of the whole text. */
  static String whole(String text) {
    return of(Text.of(Inline.whole(text)));
  }

  private static String clean(String text) {
    return text.replace('`', '\'').replace('\r', ' ').replace('\n', ' ');
  }
}
