package dev.tokentrace.parse.vllm;

import org.jspecify.annotations.Nullable;

/**
 * Where the parts of a vLLM record header sit in a cleaned line: {@code [(Proc pid=N)
 * ][prefix]LEVEL MM-DD HH:MM:SS [file:line] message}. The square bracket before the file exists
 * since c0e3ecd6d (2025-02-24), the file is a package-relative path at DEBUG since b5fb3005a
 * (2025-09-10), and {@code VLLM_LOGGING_PREFIX} text may precede the level since 29061ed9d
 * (2024-10-22); docs/formats/vllm.md#record-header. Found by hand-written scanning: a regex over
 * arbitrary prefixes of multi-megabyte lines is what this class avoids.
 *
 * @param procStart start of the process prefix that belongs to this header, -1 when none
 * @param procEnd end of that prefix (after its space), -1 when none
 * @param levelStart where the level name starts
 * @param msgStart where the message starts (the line length for an empty message)
 * @param problem null for a good header, else the rejection reason
 */
record VllmHeader(
    int procStart,
    int procEnd,
    int levelStart,
    Level level,
    int month,
    int day,
    int hour,
    int minute,
    int second,
    int msgStart,
    @Nullable String problem) {

  static final String BAD_TIMESTAMP = "record header: bad timestamp";
  static final String BAD_SOURCE = "record header: bad source location";
  static final String INVALID_UTF8 = "invalid utf-8";

  /** Longest file path accepted between the timestamp and {@code :line]}. */
  private static final int MAX_SOURCE = 300;

  /** The timestamp {@code MM-DD HH:MM:SS} is 14 characters. */
  private static final int TIMESTAMP_LENGTH = 14;

  /**
   * The header of {@code line}, whose text after any process prefix starts at {@code bodyStart};
   * null when the line holds no {@code LEVEL MM-DD HH:MM:SS } sequence. Tries the usual position
   * first and searches the rest of the line only when that fails.
   */
  static @Nullable VllmHeader find(String line, int bodyStart) {
    VllmHeader header = bodyStart > 0 ? at(line, bodyStart, 0, bodyStart) : at(line, 0, -1, -1);
    if (header != null) {
      return header;
    }
    for (int at = bodyStart + 1; at + 20 < line.length(); at++) {
      char c = line.charAt(at);
      if ((c == 'D' || c == 'I' || c == 'W' || c == 'E' || c == 'C')
          && !Ascii.isLetter(line.charAt(at - 1))) {
        header = at(line, at, -1, -1);
        if (header != null) {
          return afterJunk(line, header);
        }
      }
    }
    return null;
  }

  /** The header parsed at {@code levelStart}, null when level and timestamp are not there. */
  private static @Nullable VllmHeader at(String line, int levelStart, int procStart, int procEnd) {
    Level level = Level.at(line, levelStart);
    if (level == null) {
      return null;
    }
    int time = levelStart + level.name().length() + 1;
    if (!timestampShape(line, time)) {
      return null;
    }
    int month = Ascii.twoDigits(line, time);
    int day = Ascii.twoDigits(line, time + 3);
    int hour = Ascii.twoDigits(line, time + 6);
    int minute = Ascii.twoDigits(line, time + 9);
    int second = Ascii.twoDigits(line, time + 12);
    int msgStart = sourceEnd(line, time + TIMESTAMP_LENGTH + 1);
    String problem = null;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
      problem = BAD_TIMESTAMP;
    } else if (msgStart < 0) {
      problem = BAD_SOURCE;
    }
    if (problem != null && Ascii.hasReplacement(line, 0, time + TIMESTAMP_LENGTH + MAX_SOURCE)) {
      problem = INVALID_UTF8;
    }
    return new VllmHeader(
        procStart,
        procEnd,
        levelStart,
        level,
        month,
        day,
        hour,
        minute,
        second,
        Math.max(msgStart, 0),
        problem);
  }

  private static boolean timestampShape(String line, int at) {
    if (at + TIMESTAMP_LENGTH >= line.length() || line.charAt(at + TIMESTAMP_LENGTH) != ' ') {
      return false;
    }
    return line.charAt(at + 2) == '-'
        && line.charAt(at + 5) == ' '
        && line.charAt(at + 8) == ':'
        && line.charAt(at + 11) == ':'
        && Ascii.twoDigits(line, at) >= 0
        && Ascii.twoDigits(line, at + 3) >= 0
        && Ascii.twoDigits(line, at + 6) >= 0
        && Ascii.twoDigits(line, at + 9) >= 0
        && Ascii.twoDigits(line, at + 12) >= 0;
  }

  /**
   * Reads {@code [file:line] } (bracket optional) from {@code at}; returns where the message starts
   * or -1. Python writes {@code "] "} even for an empty message; a stripped trailing space is
   * accepted too.
   */
  private static int sourceEnd(String line, int at) {
    int start = at < line.length() && line.charAt(at) == '[' ? at + 1 : at;
    int limit = Math.min(line.length(), start + MAX_SOURCE);
    int colon = start;
    while (colon < limit && isPathChar(line.charAt(colon))) {
      colon++;
    }
    if (colon == start || colon >= limit || line.charAt(colon) != ':') {
      return -1;
    }
    int digitsEnd = Ascii.digitsEnd(line, colon + 1);
    if (digitsEnd == colon + 1 || digitsEnd - colon > 10) {
      return -1;
    }
    if (digitsEnd >= line.length() || line.charAt(digitsEnd) != ']') {
      return -1;
    }
    int after = digitsEnd + 1;
    if (after == line.length()) {
      return after;
    }
    return line.charAt(after) == ' ' ? after + 1 : -1;
  }

  private static boolean isPathChar(char c) {
    return c > ' ' && c != ':' && c != '[' && c != ']' && c != Ascii.REPLACEMENT;
  }

  /**
   * A header found after other text: journald or container-runtime prefixes, an unfinished tqdm
   * bar, {@code VLLM_LOGGING_PREFIX}. A process prefix right before the level still names the
   * process; replacement characters in the skipped text make the header untrustworthy.
   */
  private static VllmHeader afterJunk(String line, VllmHeader header) {
    int levelStart = header.levelStart();
    if (header.problem() == null && Ascii.hasReplacement(line, 0, levelStart)) {
      return header.withProblem(INVALID_UTF8);
    }
    int open = line.lastIndexOf('(', levelStart);
    if (open >= 0 && ProcessPrefix.end(line, open) == levelStart) {
      return withProcess(header, open, levelStart);
    }
    int leadingEnd = ProcessPrefix.skipAll(line, 0);
    return leadingEnd > 0 ? withProcess(header, 0, leadingEnd) : header;
  }

  /**
   * The stand-in header of a message body that a wrapper layout printed with its own level
   * (docs/formats/layouts.md): no time of its own, the message starting at {@code bodyStart}, after
   * the process prefixes before it.
   */
  static VllmHeader bodyOnly(Level level, int bodyStart) {
    int procEnd = bodyStart > 0 ? bodyStart : -1;
    int procStart = bodyStart > 0 ? 0 : -1;
    return new VllmHeader(procStart, procEnd, bodyStart, level, 0, 0, 0, 0, 0, bodyStart, null);
  }

  private static VllmHeader withProcess(VllmHeader header, int procStart, int procEnd) {
    return new VllmHeader(
        procStart,
        procEnd,
        header.levelStart,
        header.level,
        header.month,
        header.day,
        header.hour,
        header.minute,
        header.second,
        header.msgStart,
        header.problem);
  }

  private VllmHeader withProblem(String reason) {
    return new VllmHeader(
        procStart, procEnd, levelStart, level, month, day, hour, minute, second, msgStart, reason);
  }

  /** The process prefix text without parentheses and trailing space, or null. */
  @Nullable String process(String line) {
    if (procStart < 0) {
      return null;
    }
    int close = line.lastIndexOf(')', procEnd - 1);
    return close > procStart ? line.substring(procStart + 1, close) : null;
  }

  /**
   * True when {@code other} (a header of {@code otherLine}) has the same process prefix, level,
   * timestamp and source location: the test {@code NewLineFormatter} continuation lines pass.
   */
  boolean sameAs(String line, VllmHeader other, String otherLine) {
    int length = msgStart - levelStart;
    int procLength = procEnd - procStart;
    return length == other.msgStart - other.levelStart
        && procLength == other.procEnd - other.procStart
        && line.regionMatches(levelStart, otherLine, other.levelStart, length)
        && (procStart < 0 || line.regionMatches(procStart, otherLine, other.procStart, procLength));
  }
}
