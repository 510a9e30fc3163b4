package dev.tokentrace.report;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * HTML escaping for the report: every string that came from a log, a file or the database goes
 * through {@link #text} (element content, SVG text) or {@link #attr} (a double-quoted attribute
 * value), so a request ID, instance name or notice message such as {@code <script>} is shown as
 * typed and never becomes markup.
 */
final class Html {
  private Html() {}

  /** Escapes {@code & < > " '} (enough for element content and double-quoted attributes). */
  static String text(@Nullable String value) {
    if (value == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(value.length() + 16);
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '&':
          out.append("&amp;");
          break;
        case '<':
          out.append("&lt;");
          break;
        case '>':
          out.append("&gt;");
          break;
        case '"':
          out.append("&quot;");
          break;
        case '\'':
          out.append("&#39;");
          break;
        default:
          // control characters other than tab and newline cannot be shown; NUL is invalid HTML
          out.append(c < 0x20 && c != '\t' && c != '\n' ? ' ' : c);
      }
    }
    return out.toString();
  }

  /** A double-quoted attribute value. */
  static String attr(@Nullable String value) {
    return "\"" + text(value) + "\"";
  }

  /**
   * Report prose that marks log-derived text as Markdown code spans ({@link MarkdownText}): escaped
   * first, then each {@code `...`} pair becomes {@code <code>...</code>} (escaping leaves no tag
   * for the pairing to touch).
   */
  static String prose(String sentence) {
    String escaped = text(sentence);
    StringBuilder out = new StringBuilder(escaped.length() + 32);
    boolean open = false;
    for (int i = 0; i < escaped.length(); i++) {
      char c = escaped.charAt(i);
      if (c == '`') {
        out.append(open ? "</code>" : "<code>");
        open = !open;
      } else {
        out.append(c);
      }
    }
    if (open) {
      out.append("</code>");
    }
    return out.toString();
  }

  /** A number for an attribute or a coordinate: locale-free, two decimals at most. */
  static String num(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return String.format(Locale.ROOT, "%.2f", value);
  }
}
