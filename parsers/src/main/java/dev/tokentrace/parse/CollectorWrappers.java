package dev.tokentrace.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Finds the envelope a log collector put around one physical line and the engine's own text inside
 * it (docs/formats/collectors.md). One layer in front of every engine parser, so that vLLM, SGLang
 * and TensorRT-LLM read collected logs alike:
 *
 * <ul>
 *   <li>Docker's json-file driver: {@code {"log":"…\n","stream":"stdout","time":"…"}}; a {@code
 *       log} value without its final newline is a partial line (#docker-json-file);
 *   <li>the CRI log format of the kubelet's files: {@code <RFC 3339> stdout F …}, {@code P} for a
 *       partial line (#cri);
 *   <li>{@code kubectl logs --timestamps} and {@code docker logs --timestamps}: an RFC 3339 time
 *       and a space (#kubectl-timestamps);
 *   <li>journald's {@code short}, {@code short-precise}, {@code short-iso}, {@code
 *       short-iso-precise} and {@code short-full} outputs (#journald);
 *   <li>{@code kubectl logs --prefix} and {@code docker compose logs} prefixes (#prefixes);
 *   <li>a collector's own leading date-time, bare or in brackets, in front of the engine's header
 *       (#collector-timestamp).
 * </ul>
 *
 * <p>Wrappers can stack (journald around a compose prefix); at most {@value #MAX_LAYERS} are
 * removed. The result of the last {@link #unwrap} is kept in fields: not thread-safe, one instance
 * per source. Allocation-free for a line without an envelope: each check starts with character
 * tests.
 */
final class CollectorWrappers {
  static final int MAX_LAYERS = 4;

  private static final JsonFactory JSON = new JsonFactory();

  private static final String ISO =
      "(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?(Z|[+-]\\d{2}:?\\d{2})";

  /** CRI: {@code 2026-01-02T03:04:05.123456789Z stdout F text}; the tag may list several flags. */
  private static final Pattern CRI =
      Pattern.compile("^" + ISO + " (?:stdout|stderr) ([A-Z](?::[A-Z])*)(?: |$)");

  /** A journald host name, then the syslog identifier with its pid and a colon. */
  private static final String HOST_IDENT = " [A-Za-z0-9][\\w.-]* [\\w./@-]+\\[\\d+\\]: ";

  /**
   * journald {@code short-iso[-precise]}: the time with an offset that has no colon ({@code
   * +0000}), unlike RFC 3339, so it is never taken for a kubectl time.
   */
  private static final Pattern JOURNALD_ISO =
      Pattern.compile(
          "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?[+-]\\d{4}" + HOST_IDENT);

  /** {@code kubectl logs --timestamps}, {@code docker logs -t}: an RFC 3339 time with a zone. */
  private static final Pattern RFC3339 = Pattern.compile("^" + ISO + " ");

  /** journald {@code short[-precise]}: {@code Jan 02 15:04:05[.123456] host ident[pid]: }. */
  private static final Pattern JOURNALD_SHORT =
      Pattern.compile("^[A-Z][a-z]{2} [ \\d]\\d \\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,6})?" + HOST_IDENT);

  /** journald {@code short-full}: {@code Tue 2026-01-02 15:04:05 UTC host ident[pid]: }. */
  private static final Pattern JOURNALD_FULL =
      Pattern.compile(
          "^[A-Z][a-z]{2} (\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2})(?:\\.\\d{1,6})? ([A-Za-z0-9/_+-]+)"
              + HOST_IDENT);

  /**
   * A collector's own time: an ISO date, {@code T} or a space, a time with optional fraction
   * ({@code .} or {@code ,}) and optional zone, bare or in brackets, then blanks.
   */
  private static final Pattern COLLECTOR_TS =
      Pattern.compile(
          "^(\\[?)(\\d{4})-(\\d{2})-(\\d{2})([T ])(\\d{2}):(\\d{2}):(\\d{2})(?:[.,](\\d{1,9}))?"
              + "(Z|[+-]\\d{2}:?\\d{2}| ?UTC)?(\\]?)[ \\t]+");

  /** {@code kubectl logs --prefix}: {@code [pod/name/container] }. */
  private static final Pattern KUBECTL_PREFIX = Pattern.compile("^\\[pod/[^\\]\\s]+\\] ");

  /** {@code docker compose logs}: {@code name-1 | }. */
  private static final Pattern COMPOSE = Pattern.compile("^[A-Za-z0-9][\\w.-]{0,62}\\s+\\| ");

  /** Engine headers that follow a collector's time: vLLM {@code INFO 01-02 …}. */
  private static final Pattern VLLM_LEVEL =
      Pattern.compile("^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \\d{2}-\\d{2} ");

  private static final int MAX_COMPOSE_NAME = 80;

  private final ZoneId zone;

  /** The engine's text of the last line. */
  private String text = "";

  /** The collector's time of the last line, when it printed one with a date. */
  private @Nullable Instant ts;

  /** The last line is a part; the next parts complete it. */
  private boolean partial;

  /** The last line came from stderr (Docker and CRI keep the two streams' parts apart). */
  private boolean stderr;

  /** Names of the envelopes removed from the last line, outermost first; "" when none. */
  private String wrappers = "";

  CollectorWrappers(ZoneId zone) {
    this.zone = zone;
  }

  /**
   * Removes the collectors' envelopes from {@code line}; false (and {@link #text()} is {@code
   * line}) when there were none.
   */
  boolean unwrap(String line) {
    text = line;
    ts = null;
    partial = false;
    stderr = false;
    wrappers = "";
    for (int layer = 0; layer < MAX_LAYERS; layer++) {
      if (!unwrapOnce()) {
        break;
      }
      if (partial) {
        // the rest of the text comes in later parts: nothing more to strip now
        break;
      }
    }
    return !wrappers.isEmpty();
  }

  String text() {
    return text;
  }

  @Nullable Instant ts() {
    return ts;
  }

  boolean partial() {
    return partial;
  }

  boolean stderr() {
    return stderr;
  }

  String wrappers() {
    return wrappers;
  }

  private boolean unwrapOnce() {
    String line = text;
    if (line.length() < 3) {
      return false;
    }
    char first = line.charAt(0);
    if (first == '{') {
      return line.startsWith("{\"log\":") && dockerJson(line);
    }
    if (isDigit(first)) {
      if (line.length() > 20 && line.charAt(4) == '-' && line.charAt(10) == 'T') {
        if (iso(line)) {
          return true;
        }
      }
      return line.length() > 19 && line.charAt(4) == '-' && collectorTs(line);
    }
    if (first == '[') {
      char second = line.charAt(1);
      if (isDigit(second)) {
        return line.length() > 20 && line.charAt(5) == '-' && collectorTs(line);
      }
      return second == 'p' && strip(KUBECTL_PREFIX.matcher(line), "kubectl-prefix");
    }
    if (first >= 'A' && first <= 'Z' && line.length() > 16 && line.charAt(3) == ' ') {
      if (line.length() > 24 && isDigit(line.charAt(4)) && line.charAt(8) == '-') {
        Matcher full = JOURNALD_FULL.matcher(line);
        if (full.lookingAt()) {
          ts = journaldFullTime(full.group(1), full.group(2));
          return stripped(full.end(), "journald");
        }
      } else if (strip(JOURNALD_SHORT.matcher(line), "journald")) {
        // no year in this output: the time is not used (docs/formats/collectors.md#journald)
        return true;
      }
    }
    if (isAsciiAlphanumeric(first) && hasBarWithin(line)) {
      return strip(COMPOSE.matcher(line), "compose");
    }
    return false;
  }

  /** CRI, journald short-iso, or a kubectl/docker time prefix. */
  private boolean iso(String line) {
    Matcher cri = CRI.matcher(line);
    if (cri.lookingAt()) {
      ts = instant(cri);
      stderr = line.startsWith("stderr", cri.end(8) + 1);
      partial = cri.group(9).indexOf('P') >= 0;
      return stripped(cri.end(), "cri");
    }
    Matcher journald = JOURNALD_ISO.matcher(line);
    if (journald.lookingAt()) {
      ts = instant(journald);
      return stripped(journald.end(), "journald");
    }
    Matcher rfc = RFC3339.matcher(line);
    if (rfc.lookingAt()) {
      ts = instant(rfc);
      return stripped(rfc.end(), "timestamp");
    }
    return false;
  }

  /**
   * A collector's own date-time. An unbracketed RFC 3339 time is kubectl's and handled before;
   * every other form is removed only where an engine header follows, because SGLang's own header is
   * a bracketed date-time and embedders put bare ones before messages the engines find themselves
   * (docs/formats/collectors.md#collector-timestamp).
   */
  private boolean collectorTs(String line) {
    Matcher matcher = COLLECTOR_TS.matcher(line);
    if (!matcher.lookingAt()) {
      return false;
    }
    boolean open = !matcher.group(1).isEmpty();
    boolean close = !matcher.group(11).isEmpty();
    if (open != close) {
      return false;
    }
    boolean isoWithZone = matcher.group(5).equals("T") && matcher.group(10) != null;
    int end = matcher.end();
    if (!(open && isoWithZone) && !engineHeaderAt(line, end)) {
      return false;
    }
    ts = localOrZoned(matcher);
    return stripped(end, "collector-timestamp");
  }

  /** Whether an engine's own header starts at {@code at}: its own time, level or process tag. */
  private static boolean engineHeaderAt(String line, int at) {
    if (at >= line.length()) {
      return false;
    }
    char c = line.charAt(at);
    if (c == '{') {
      return true;
    }
    if (c == '[') {
      return (at + 1 < line.length() && isDigit(line.charAt(at + 1)))
          || line.startsWith("[TensorRT-LLM]", at)
          || line.startsWith("[TRT-LLM]", at)
          || line.startsWith("[TRT]", at);
    }
    if (c == '(') {
      int close = line.indexOf(')', at);
      return close > 0 && line.lastIndexOf(" pid=", close) > at;
    }
    return c >= 'A' && c <= 'Z' && VLLM_LEVEL.matcher(line).region(at, line.length()).lookingAt();
  }

  private boolean dockerJson(String line) {
    String log = null;
    String time = null;
    try (JsonParser parser = JSON.createParser(line)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      JsonToken token;
      while ((token = parser.nextToken()) == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (name.equals("log") && value == JsonToken.VALUE_STRING) {
          log = parser.getText();
        } else if (name.equals("time") && value == JsonToken.VALUE_STRING) {
          time = parser.getText();
        } else if (name.equals("stream") && value == JsonToken.VALUE_STRING) {
          stderr = parser.getText().equals("stderr");
        } else {
          parser.skipChildren();
        }
      }
      if (token != JsonToken.END_OBJECT || parser.nextToken() != null) {
        return false;
      }
    } catch (IOException e) {
      // not a complete json-file record: the engine parser reports the line
      return false;
    }
    if (log == null) {
      return false;
    }
    ts = time == null ? null : parseInstant(time);
    if (log.endsWith("\n")) {
      text = log.substring(0, log.length() - 1);
    } else {
      // Docker splits lines longer than 16 KiB; every part but the last lacks the newline
      text = log;
      partial = true;
    }
    wrappers = wrappers.isEmpty() ? "docker-json" : wrappers + "+docker-json";
    return true;
  }

  private boolean strip(Matcher matcher, String name) {
    return matcher.lookingAt() && stripped(matcher.end(), name);
  }

  private boolean stripped(int end, String name) {
    text = text.substring(end);
    wrappers = wrappers.isEmpty() ? name : wrappers + "+" + name;
    return true;
  }

  /** The RFC 3339 time that starts the match. */
  private static @Nullable Instant instant(Matcher matcher) {
    String prefix = matcher.group(0);
    int space = prefix.indexOf(' ');
    return parseInstant(space < 0 ? prefix : prefix.substring(0, space));
  }

  private static @Nullable Instant parseInstant(String value) {
    try {
      String text = value;
      // journald prints +0000; java.time wants +00:00
      int length = text.length();
      if (length > 5
          && (text.charAt(length - 5) == '+' || text.charAt(length - 5) == '-')
          && isDigit(text.charAt(length - 1))
          && text.charAt(length - 3) != ':') {
        text = text.substring(0, length - 2) + ":" + text.substring(length - 2);
      }
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeException e) {
      // e.g. month 13: the envelope is still removed, the line just gets no collector time
      return null;
    }
  }

  private @Nullable Instant localOrZoned(Matcher matcher) {
    try {
      int nanos = 0;
      String fraction = matcher.group(9);
      if (fraction != null) {
        nanos = Integer.parseInt((fraction + "00000000").substring(0, 9));
      }
      LocalDateTime local =
          LocalDateTime.of(
              Integer.parseInt(matcher.group(2)),
              Integer.parseInt(matcher.group(3)),
              Integer.parseInt(matcher.group(4)),
              Integer.parseInt(matcher.group(6)),
              Integer.parseInt(matcher.group(7)),
              Integer.parseInt(matcher.group(8)),
              nanos);
      String offset = matcher.group(10);
      if (offset == null) {
        return local.atZone(zone).toInstant();
      }
      offset = offset.trim();
      if (offset.equals("Z") || offset.equals("UTC")) {
        return local.toInstant(ZoneOffset.UTC);
      }
      return local.toInstant(ZoneOffset.of(offset));
    } catch (DateTimeException e) {
      return null;
    }
  }

  private @Nullable Instant journaldFullTime(String dateTime, String zoneName) {
    try {
      LocalDateTime local = LocalDateTime.parse(dateTime.replace(' ', 'T'));
      ZoneId named = ZoneId.of(zoneName.toUpperCase(Locale.ROOT), ZoneId.SHORT_IDS);
      return local.atZone(named).toInstant();
    } catch (DateTimeException e) {
      return local(dateTime);
    }
  }

  private @Nullable Instant local(String dateTime) {
    try {
      return LocalDateTime.parse(dateTime.replace(' ', 'T')).atZone(zone).toInstant();
    } catch (DateTimeException e) {
      return null;
    }
  }

  /** A compose prefix {@code name | } within the first characters. */
  private static boolean hasBarWithin(String text) {
    int stop = Math.min(text.length() - 1, MAX_COMPOSE_NAME);
    for (int i = 1; i < stop; i++) {
      if (text.charAt(i) == '|' && text.charAt(i + 1) == ' ') {
        return true;
      }
    }
    return false;
  }

  private static boolean isAsciiAlphanumeric(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || isDigit(c);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
