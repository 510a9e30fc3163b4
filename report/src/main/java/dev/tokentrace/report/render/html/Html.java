package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Text;
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
   * Report text: prose escaped, code as {@code <code>} elements of escaped text (shown as typed, on
   * one line).
   */
  static String prose(Text sentence) {
    StringBuilder out = new StringBuilder();
    for (Inline part : sentence.parts()) {
      if (part instanceof Inline.Code code) {
        out.append("<code>")
            .append(text(code.text().replace('\r', ' ').replace('\n', ' ')))
            .append("</code>");
      } else {
        out.append(text(part.text()));
      }
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
