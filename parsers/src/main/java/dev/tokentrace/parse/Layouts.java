package dev.tokentrace.parse;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The layout-stripping stage in front of every engine's body grammar (docs/formats/layouts.md):
 * after the collectors' envelopes are off ({@link CollectorWrappers}), it removes what process
 * managers, orchestration layers and deployments' own logging formats put around an engine's
 * message, keeps the time and level they printed, and hands the engine parser the rest. The
 * engines' own headers stay: they are layouts the engine parsers read themselves, and their time
 * wins over a wrapper's (docs/formats/layouts.md#which-time).
 *
 * <ul>
 *   <li>ANSI colour sequences anywhere in the line (docs/formats/layouts.md#ansi);
 *   <li>Ray's log deduplication suffix {@code [repeated 2x across cluster]} and its one-time hint
 *       (docs/formats/layouts.md#ray-dedup);
 *   <li>NVIDIA Dynamo's readable layout {@code 2025-09-02T15:50:01.770028Z INFO main.init: } (the
 *       time is taken off by the collector layer as a {@code --timestamps} time; the level and
 *       target follow) (docs/formats/layouts.md#dynamo);
 *   <li>a deployment's {@code [date time][file.py:N][LEVEL]: } (docs/formats/layouts.md#bracketed);
 *   <li>for engines whose parser does not read them, process-manager tags {@code (Name pid=N[, ip=
 *       A]) } (docs/formats/layouts.md#process-tags).
 * </ul>
 *
 * <p>Cheap for a line without any of them (docs/design.md#line-prechecks): each check starts with a
 * character test or an {@code indexOf}, and nothing is allocated. The result of the last {@link
 * #strip} is kept in fields: not thread-safe, one instance per source.
 */
final class Layouts {
  private static final char ESC = '\u001B';

  /** Ray: {@code [repeated 2x across cluster]}, maybe followed by the one-time hint. */
  private static final String RAY_REPEATED = " [repeated ";

  private static final String RAY_SUFFIX = "x across cluster]";

  private static final String RAY_HINT = " (Ray deduplicates logs by default.";

  /** Dynamo's readable layout after its time: padded level, the target and a colon. */
  private static final Pattern DYNAMO =
      Pattern.compile("^ {0,2}(TRACE|DEBUG|INFO|WARN|ERROR) {1,2}[A-Za-z_][\\w.:<>-]{0,200}: ");

  private static final String[] DYNAMO_LEVELS = {"INFO", "WARN", "ERROR", "DEBUG", "TRACE"};

  /** {@code [2026-01-02 03:04:05,123][scheduler.py:860][INFO]: }. */
  private static final Pattern BRACKETED =
      Pattern.compile(
          "^\\[(\\d{4})-(\\d{2})-(\\d{2})[ T](\\d{2}):(\\d{2}):(\\d{2})(?:[.,](\\d{1,9}))?"
              + "(Z|[+-]\\d{2}:?\\d{2})?\\] ?\\[[^\\[\\]\\s]{1,200}:\\d{1,7}\\] ?"
              + "\\[(DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\\]:? ?");

  /** {@code (EngineCore_DP0 pid=123) }, {@code (RayWorkerWrapper pid=812, ip=10.1.2.3) }. */
  private static final Pattern PROCESS_TAG =
      Pattern.compile("^\\([^()]{0,120}?\\bpid=\\d+(?:, ip=[^)\\s]+)?\\)(?: |$)");

  private final ZoneId zone;
  private final boolean stripProcessTags;

  private String text = "";
  private @Nullable Instant ts;
  private @Nullable String level;
  private String layouts = "";

  /**
   * @param stripProcessTags whether process tags are taken off here; vLLM's and SGLang's parsers
   *     read them themselves (a process's records group by them, SGLang's rank includes the pid)
   */
  Layouts(ZoneId zone, boolean stripProcessTags) {
    this.zone = zone;
    this.stripProcessTags = stripProcessTags;
  }

  /** A line's text without ANSI colour sequences; the same instance when it has none. */
  static String withoutAnsi(String line) {
    int esc = line.indexOf(ESC);
    if (esc < 0) {
      return line;
    }
    StringBuilder clean = new StringBuilder(line.length());
    clean.append(line, 0, esc);
    int at = esc;
    int end = line.length();
    while (at < end) {
      int skip = controlSequenceEnd(line, at, end);
      if (skip > at) {
        at = skip;
      } else {
        clean.append(line.charAt(at++));
      }
    }
    return clean.toString();
  }

  /**
   * Strips the layouts around {@code line}, whose collector time (if any) is {@code collectorTs}.
   * Returns true when something was removed; {@link #text()} is the rest either way.
   */
  boolean strip(String line, @Nullable Instant collectorTs) {
    text = withoutAnsi(line);
    ts = collectorTs;
    level = null;
    layouts = text == line ? "" : "ansi";
    int length = text.length();
    if (length > RAY_SUFFIX.length() && (text.endsWith("]") || text.endsWith(")"))) {
      rayDedup();
    }
    for (int round = 0; round < 3 && !text.isEmpty(); round++) {
      char first = text.charAt(0);
      if (first == '[') {
        if (!bracketed()) {
          break;
        }
      } else if (first == '(') {
        if (!stripProcessTags || !processTag()) {
          break;
        }
      } else if (first == ' ' || (first >= 'A' && first <= 'Z')) {
        if (collectorTs == null || !dynamo()) {
          break;
        }
      } else {
        break;
      }
    }
    return !layouts.isEmpty();
  }

  /** The line without the layouts. */
  String text() {
    return text;
  }

  /** The time a wrapper printed (a collector's or a layout's), or null. */
  @Nullable Instant ts() {
    return ts;
  }

  /** The level a layout printed before a body, as Python names it ({@code WARNING}), or null. */
  @Nullable String level() {
    return level;
  }

  /** The layouts removed from the last line, outermost first, joined by {@code +}; "" if none. */
  String layouts() {
    return layouts;
  }

  private void rayDedup() {
    int hint = text.lastIndexOf(RAY_HINT);
    String line = hint > 0 && text.endsWith(")") ? text.substring(0, hint) : text;
    if (!line.endsWith(RAY_SUFFIX)) {
      return;
    }
    int open = line.lastIndexOf(RAY_REPEATED);
    if (open < 0) {
      return;
    }
    int digits = open + RAY_REPEATED.length();
    int count = line.length() - RAY_SUFFIX.length() - digits;
    if (count < 1 || count > 9 || Timestamps.digits(line, digits, count) < 0) {
      return;
    }
    text = line.substring(0, open);
    added("ray-dedup");
  }

  private boolean dynamo() {
    if (!dynamoShape(text)) {
      return false;
    }
    Matcher matcher = DYNAMO.matcher(text);
    if (!matcher.lookingAt()) {
      return false;
    }
    level = pythonLevel(matcher.group(1));
    text = text.substring(matcher.end());
    added("dynamo");
    return true;
  }

  /**
   * Dynamo's level and the first character of a target, by character tests: a collector-timed
   * engine header ({@code INFO 01-02 …}) is turned away without a matcher.
   */
  private static boolean dynamoShape(String line) {
    int at = 0;
    while (at < 2 && at < line.length() && line.charAt(at) == ' ') {
      at++;
    }
    int levelEnd = -1;
    for (String level : DYNAMO_LEVELS) {
      if (line.startsWith(level, at)) {
        levelEnd = at + level.length();
        break;
      }
    }
    if (levelEnd < 0 || levelEnd >= line.length() || line.charAt(levelEnd) != ' ') {
      return false;
    }
    int target = levelEnd + 1;
    if (target < line.length() && line.charAt(target) == ' ') {
      target++;
    }
    if (target >= line.length()) {
      return false;
    }
    char c = line.charAt(target);
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  }

  private boolean bracketed() {
    if (text.length() < 30 || !Character.isDigit(text.charAt(1))) {
      return false;
    }
    // the date's bracket closes within 40 characters and another bracket follows it
    int close = text.indexOf(']');
    if (close < 0
        || close > 40
        || !(text.startsWith("[", close + 1) || text.startsWith(" [", close + 1))) {
      return false;
    }
    Matcher matcher = BRACKETED.matcher(text);
    if (!matcher.lookingAt()) {
      return false;
    }
    Instant time = time(matcher);
    if (time != null) {
      ts = time;
    }
    level = pythonLevel(matcher.group(9));
    text = text.substring(matcher.end());
    added("bracketed");
    return true;
  }

  private boolean processTag() {
    Matcher matcher = PROCESS_TAG.matcher(text);
    if (!matcher.lookingAt()) {
      return false;
    }
    text = text.substring(matcher.end());
    added("process-tag");
    return true;
  }

  private void added(String name) {
    layouts = layouts.isEmpty() ? name : layouts + "+" + name;
  }

  private @Nullable Instant time(Matcher matcher) {
    try {
      String fraction = matcher.group(7);
      int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
      LocalDateTime local =
          LocalDateTime.of(
              Integer.parseInt(matcher.group(1)),
              Integer.parseInt(matcher.group(2)),
              Integer.parseInt(matcher.group(3)),
              Integer.parseInt(matcher.group(4)),
              Integer.parseInt(matcher.group(5)),
              Integer.parseInt(matcher.group(6)),
              nanos);
      String offset = matcher.group(8);
      if (offset == null) {
        return local.atZone(zone).toInstant();
      }
      return offset.equals("Z")
          ? local.toInstant(ZoneOffset.UTC)
          : local.toInstant(ZoneOffset.of(offset));
    } catch (DateTimeException e) {
      // e.g. month 13: the layout still comes off, the line just gets no wrapper time
      return null;
    }
  }

  /** Python's level names, which the engine parsers know: WARN is WARNING, TRACE is DEBUG. */
  private static String pythonLevel(String name) {
    switch (name) {
      case "WARN":
        return "WARNING";
      case "TRACE":
        return "DEBUG";
      case "FATAL":
        return "CRITICAL";
      default:
        return name;
    }
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
