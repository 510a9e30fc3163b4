package dev.tokentrace.parse;

import dev.tokentrace.event.UserText;

/**
 * Follows a prompt printed over several lines: once a line opens a user-text value and does not
 * close it ({@link UserText#unterminatedQuote}), the lines after it are user text up to the closing
 * quote, and the parser gets them with that text replaced by {@code <redacted N chars>}, so that no
 * continuation line of a prompt reaches a notice, a rejection or the rejects topic. The parser says
 * where a continuation line's text starts after a header its engine repeats, and which line starts
 * a new record instead ({@link LineParser#continuationStart}). docs/privacy.md#multi-line-prompts.
 * Not thread-safe: one per source.
 */
final class UserTextGuard {
  /** A value still open after this many lines is given up on (the quote was not a prompt's). */
  static final int MAX_LINES = 10_000;

  private char quote;
  private int lines;

  /** Whether the next line continues user text. */
  boolean inside() {
    return quote != 0;
  }

  /** The line as the parser is to see it. */
  String next(String line, LineParser parser) {
    if (quote == 0) {
      quote = UserText.unterminatedQuote(line);
      return line;
    }
    int start = parser.continuationStart(line);
    if (start < 0 || ++lines > MAX_LINES) {
      reset();
      quote = UserText.unterminatedQuote(line);
      return line;
    }
    int limit = line.endsWith("\r") ? line.length() - 1 : line.length();
    // a continuation line was printed raw (a repr or JSON escapes its newlines), so nothing
    // escapes a quote inside it either: the value ends at the first quote that ends a word
    // ("tomorrow\", input_ids=..." in SGLang v0.4.1, "two words' is too long"), not at "it's"
    int close = closingQuote(line, start, limit, quote);
    if (close < 0) {
      return line.substring(0, start) + UserText.marker(limit - start) + line.substring(limit);
    }
    reset();
    String replaced =
        line.substring(0, start) + UserText.marker(close - start) + line.substring(close);
    quote = UserText.unterminatedQuote(replaced.substring(0, start) + line.substring(close + 1));
    return replaced;
  }

  /** The first {@code quote} followed by the end, a space or a closing punctuation mark. */
  private static int closingQuote(String line, int start, int limit, char quote) {
    for (int i = line.indexOf(quote, start); i >= 0 && i < limit; i = line.indexOf(quote, i + 1)) {
      if (i + 1 >= limit || " \t,;:)]}.".indexOf(line.charAt(i + 1)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  private void reset() {
    quote = 0;
    lines = 0;
  }
}
