package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

/**
 * One run of report text: prose as written, or code (a name, command, path or log line) that every
 * renderer shows as typed and never interprets. Renderers switch over the two kinds; adding a kind
 * (emphasis, a number with its unit) is one record here and one case per renderer.
 */
public sealed interface Inline permits Inline.Plain, Inline.Code {
  /** Code longer than this is cut (with an ellipsis) in prose; tables and queries have it whole. */
  int MAX_PROSE = 160;

  /** The characters of this run, as the reader sees them. */
  String text();

  /** Prose written by tokentrace. */
  record Plain(String text) implements Inline {
    public Plain {
      requireNonNull(text, "text is null");
    }
  }

  /** Text shown as typed in a fixed-width face: log-derived data, commands, paths, parameters. */
  record Code(String text) implements Inline {
    public Code {
      requireNonNull(text, "text is null");
    }
  }

  static Inline plain(String text) {
    return new Plain(text);
  }

  /** Code of at most {@link #MAX_PROSE} characters (longer text is cut with an ellipsis). */
  static Inline code(String text) {
    return new Code(text.length() > MAX_PROSE ? text.substring(0, MAX_PROSE - 1) + "…" : text);
  }

  /** Code of the whole text (commands, parameters, paths of the appendix). */
  static Inline whole(String text) {
    return new Code(text);
  }
}
