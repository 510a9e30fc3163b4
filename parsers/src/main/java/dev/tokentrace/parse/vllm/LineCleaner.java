package dev.tokentrace.parse.vllm;

/**
 * Removes what is not text from a physical line: trailing carriage returns ({@code
 * NewLineFormatter} ends every continued line of a record with {@code \r},
 * docs/formats/vllm.md#multi-line-records) and ANSI control sequences (the process prefix is
 * coloured in files written between 2025-07-29 and 2026-02-05, and {@code ColoredFormatter} colours
 * level, time and file since 9ccef8e33, docs/formats/vllm.md#process-prefix). Linear in the line
 * length; returns the same instance when there is nothing to remove.
 */
final class LineCleaner {
  private static final char ESC = '\u001B';

  private LineCleaner() {}

  static boolean endsWithCarriageReturn(String line) {
    return !line.isEmpty() && line.charAt(line.length() - 1) == '\r';
  }

  static String clean(String line) {
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == '\r') {
      end--;
    }
    int esc = line.indexOf(ESC);
    if (esc < 0 || esc >= end) {
      return end == line.length() ? line : line.substring(0, end);
    }
    StringBuilder text = new StringBuilder(end);
    text.append(line, 0, esc);
    int at = esc;
    while (at < end) {
      int skip = controlSequenceEnd(line, at, end);
      if (skip > at) {
        at = skip;
      } else {
        text.append(line.charAt(at++));
      }
    }
    return text.toString();
  }

  /** The end of the CSI sequence ({@code ESC [ params final}) starting at {@code at}, or at. */
  private static int controlSequenceEnd(String line, int at, int end) {
    if (line.charAt(at) != ESC || at + 1 >= end || line.charAt(at + 1) != '[') {
      return at;
    }
    int cursor = at + 2;
    while (cursor < end && line.charAt(cursor) >= 0x20 && line.charAt(cursor) <= 0x3F) {
      cursor++;
    }
    if (cursor < end && line.charAt(cursor) >= 0x40 && line.charAt(cursor) <= 0x7E) {
      return cursor + 1;
    }
    return at;
  }
}
