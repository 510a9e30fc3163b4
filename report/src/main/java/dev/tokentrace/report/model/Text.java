package dev.tokentrace.report.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Structured report text: a sentence or paragraph as a list of {@link Inline} runs (no markup
 * inside). The analysis writes it, each renderer turns it into its format (a Markdown code span, an
 * HTML {@code <code>} element, a JSON string).
 */
public record Text(List<Inline> parts) {
  private static final Pattern SPECIFIER = Pattern.compile("%[-#+ 0,(]*\\d*(?:\\.\\d+)?[a-zA-Z%]");

  public Text {
    parts = List.copyOf(parts);
  }

  /**
   * Text of pieces in order: a String is plain prose, an {@link Inline} or a {@link Text} is kept
   * as it is.
   */
  public static Text of(Object... pieces) {
    List<Inline> parts = new ArrayList<>();
    for (Object piece : pieces) {
      add(parts, piece);
    }
    return new Text(parts);
  }

  /**
   * {@link String#format} with {@link Locale#ROOT}, where an {@link Inline} or {@link Text}
   * argument (for a {@code %s}) is inserted as it is instead of being formatted into prose.
   */
  public static Text format(String template, Object... args) {
    List<Inline> parts = new ArrayList<>();
    Matcher matcher = SPECIFIER.matcher(template);
    int at = 0;
    int next = 0;
    while (matcher.find()) {
      add(parts, template.substring(at, matcher.start()));
      String specifier = matcher.group();
      if (specifier.equals("%%") || specifier.equals("%n")) {
        add(parts, String.format(Locale.ROOT, specifier));
      } else {
        Object arg = args[next++];
        add(
            parts,
            arg instanceof Inline || arg instanceof Text
                ? arg
                : String.format(Locale.ROOT, specifier, arg));
      }
      at = matcher.end();
    }
    add(parts, template.substring(at));
    if (next != args.length) {
      throw new IllegalArgumentException(
          args.length + " arguments for " + next + " specifiers in: " + template);
    }
    return new Text(parts);
  }

  /** The texts joined by a plain separator. */
  public static Text join(String separator, List<Text> texts) {
    List<Object> pieces = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      if (i > 0) {
        pieces.add(separator);
      }
      pieces.add(texts.get(i));
    }
    return of(pieces.toArray());
  }

  /** The characters a reader sees, without any marking (for tests and logs). */
  public String plain() {
    StringBuilder out = new StringBuilder();
    parts.forEach(part -> out.append(part.text()));
    return out.toString();
  }

  /** Adjacent plain runs are merged; empty plain runs dropped. */
  private static void add(List<Inline> parts, Object piece) {
    if (piece instanceof Text text) {
      text.parts().forEach(part -> add(parts, part));
    } else if (piece instanceof Inline.Code code) {
      parts.add(code);
    } else {
      String plain = piece instanceof Inline.Plain p ? p.text() : (String) piece;
      if (plain.isEmpty()) {
        return;
      }
      int last = parts.size() - 1;
      if (last >= 0 && parts.get(last) instanceof Inline.Plain before) {
        parts.set(last, new Inline.Plain(before.text() + plain));
      } else {
        parts.add(new Inline.Plain(plain));
      }
    }
  }
}
