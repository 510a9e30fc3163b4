package dev.tokentrace.parse.sglang;

import dev.tokentrace.parse.Timestamps;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Splits a line into SGLang's root-logger prefix and the message body
 * (docs/formats/sglang.md#log-prefix, docs/formats/sglang.md#rank-tags): an optional Ray actor tag
 * {@code (SGLangEngine pid=N[, ip=A]) }, then {@code [YYYY-MM-DD HH:MM:SS(.mmm)? RANKS] } (v0.3.4+,
 * milliseconds with {@code SGLANG_LOG_MS}, v0.5.6+) or {@code [HH:MM:SS RANKS] } (v0.2.14 –
 * v0.3.3), where RANKS are tags like {@code DP1 TP0} in any order; a missing leading {@code [} is
 * tolerated (SGLang issue #26248). Inside the body, the v0.1.17 – v0.2.13 tags {@code [gpu_id=N] }
 * and {@code [gpu=N] } are taken as the rank {@code GPU<N>}.
 *
 * <p>The rank is the tags as logged ({@code "DP1 TP0"}); under Ray it starts with the actor's
 * {@code pid=N}, because several engines then share one file with the same tags.
 *
 * <p>Mutable scratch, reset by each {@link #parse}: the Decode hot path allocates nothing here
 * (rank strings are cached). Not thread-safe.
 */
final class Envelope {
  private static final Pattern RAY = Pattern.compile("^\\(\\w+ (pid=\\d+)(?:, ip=[^)\\s]+)?\\) ");
  private static final int RANK_CACHE_SIZE = 16;
  private static final String[] LEVELS = {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"};

  /** The Ray actor's {@code pid=N} of the current line, or null. */
  private @Nullable String actorOnly;

  private final Timestamps.Local clock;
  private final String[] rankCache = new String[RANK_CACHE_SIZE];
  private int rankCacheNext;

  /** SGLang's bracketed prefix was found (with or without a Ray tag before it). */
  boolean prefixed;

  /** The prefix looked like SGLang's but its date or time is impossible. */
  boolean badTimestamp;

  /** Where the message body starts (after the prefix, the Ray tag and a legacy GPU tag). */
  int bodyStart;

  @Nullable Instant ts;

  /** The timestamp has milliseconds, so differences between lines are meaningful. */
  boolean millisPrecise;

  @Nullable String rank;

  Envelope(Timestamps.Local clock) {
    this.clock = clock;
  }

  void parse(String line) {
    prefixed = false;
    badTimestamp = false;
    ts = null;
    millisPrecise = false;
    rank = null;
    String actor = null;
    actorOnly = null;
    int start = 0;
    if (!line.isEmpty() && line.charAt(0) == '(') {
      Matcher ray = RAY.matcher(line);
      if (ray.lookingAt()) {
        actor = ray.group(1);
        actorOnly = actor;
        start = ray.end();
      }
    }
    bodyStart = start;
    int end = bracketEnd(line, start, actor);
    if (end > 0) {
      prefixed = true;
      bodyStart = end;
    } else if (actor != null) {
      rank = actor;
    }
    legacyGpuTag(line);
    loggerField(line);
  }

  /**
   * A logger field with rank tags at the body start, after an optional level word: {@code [date
   * time] INFO [DP9 TP9 EP9 scheduler.py:860] Decode batch...} or a line that starts with it
   * (docs/formats/sglang-wild.md#rank-in-logger-field). The tags become the rank when the prefix
   * gave none.
   */
  private void loggerField(String line) {
    int p = bodyStart;
    if (p >= line.length()) {
      return;
    }
    if (line.charAt(p) != '[') {
      int space = line.indexOf(' ', p);
      if (space < 0 || space - p > 8 || !isLevel(line, p, space)) {
        return;
      }
      p = space + 1;
    }
    LoggerField.Field field = LoggerField.at(line, p);
    if (field == null || field.tags() == null || field.end() >= line.length()) {
      return;
    }
    bodyStart = field.end();
    if (rank == null || rank.equals(actorOnly)) {
      rank = actorOnly == null ? field.tags() : actorOnly + " " + field.tags();
    }
  }

  private static boolean isLevel(String line, int from, int to) {
    for (String level : LEVELS) {
      if (level.length() == to - from && line.startsWith(level, from)) {
        return true;
      }
    }
    return false;
  }

  /** Parses {@code [time RANKS] } at {@code start}; returns the body start, or -1. */
  private int bracketEnd(String line, int start, @Nullable String actor) {
    int length = line.length();
    int p = start < length && line.charAt(start) == '[' ? start + 1 : start;
    boolean dated =
        Timestamps.isoLocalLength(line, p) >= Timestamps.ISO_LOCAL_LENGTH
            && line.charAt(p + 10) == ' ';
    if (!dated && !Timestamps.isTime(line, p)) {
      return -1;
    }
    int timeStart = dated ? p + 11 : p;
    int q = timeStart + 8;
    int nanos = 0;
    boolean millis = false;
    if (q + 3 < length && line.charAt(q) == '.' && Timestamps.digits(line, q + 1, 3) >= 0) {
      nanos = Timestamps.fractionNanos(line, q + 1, 3);
      millis = true;
      q += 4;
    }
    int ranksStart = q;
    q = skipRankTags(line, q);
    int ranksEnd = q;
    if (q > 0 && q + 1 < length && line.charAt(q) == ' ') {
      // a custom format's location after the tags: [date time DP9 TP9 scheduler.py:860]
      int location = LoggerField.locationEnd(line, q + 1);
      q = location > 0 ? location : q;
    }
    if (q < 0 || q >= length || line.charAt(q) != ']') {
      return -1;
    }
    millisPrecise = millis;
    setRank(line, ranksStart, ranksEnd, actor);
    setTimestamp(line, p, dated, timeStart, nanos);
    return q + 1 < length && line.charAt(q + 1) == ' ' ? q + 2 : q + 1;
  }

  /**
   * Skips {@code ( TAG<digits>)*} (DP, TP, PP, EP, ATTN_CP, MOE_DP, ...); -1 on a malformed tag.
   */
  private static int skipRankTags(String line, int from) {
    int q = from;
    int length = line.length();
    while (q + 2 < length && line.charAt(q) == ' ') {
      if (LoggerField.locationEnd(line, q + 1) > 0) {
        return q;
      }
      int i = q + 1;
      while (i < length && (isUpper(line.charAt(i)) || line.charAt(i) == '_')) {
        i++;
      }
      int digits = i;
      while (i < length && Character.isDigit(line.charAt(i))) {
        i++;
      }
      if (digits == q + 1 || i == digits) {
        return -1;
      }
      q = i;
    }
    return q;
  }

  private void setTimestamp(String line, int p, boolean dated, int timeStart, int nanos) {
    int secondOfDay = Timestamps.secondOfDay(line, timeStart);
    if (dated) {
      int year = Timestamps.digits(line, p, 4);
      int month = Timestamps.digits(line, p + 5, 2);
      int day = Timestamps.digits(line, p + 8, 2);
      ts = clock.of(year, month, day, secondOfDay, nanos);
      badTimestamp = ts == null;
    } else {
      badTimestamp = secondOfDay < 0;
      ts = badTimestamp ? null : clock.ofTimeOnly(secondOfDay, nanos);
    }
  }

  private void setRank(String line, int from, int to, @Nullable String actor) {
    if (from == to) {
      rank = actor;
      return;
    }
    String tags = cachedRank(line, from + 1, to);
    rank = actor == null ? tags : actor + " " + tags;
  }

  private String cachedRank(String line, int from, int to) {
    int length = to - from;
    for (String cached : rankCache) {
      if (cached != null
          && cached.length() == length
          && line.regionMatches(from, cached, 0, length)) {
        return cached;
      }
    }
    String rankText = line.substring(from, to);
    rankCache[rankCacheNext] = rankText;
    rankCacheNext = (rankCacheNext + 1) % RANK_CACHE_SIZE;
    return rankText;
  }

  /**
   * v0.1.17 – v0.2.6 {@code [gpu_id=N] }, v0.2.7 – v0.2.13 {@code [gpu=N] }
   * (docs/formats/sglang.md#rank-tags).
   */
  private void legacyGpuTag(String line) {
    int p = bodyStart;
    int digitsStart;
    if (line.startsWith("[gpu_id=", p)) {
      digitsStart = p + 8;
    } else if (line.startsWith("[gpu=", p)) {
      digitsStart = p + 5;
    } else {
      return;
    }
    int i = digitsStart;
    while (i < line.length() && Character.isDigit(line.charAt(i))) {
      i++;
    }
    if (i == digitsStart || i - digitsStart > 4 || !line.startsWith("] ", i)) {
      return;
    }
    if (rank == null) {
      rank = "GPU" + line.substring(digitsStart, i);
    }
    bodyStart = i + 2;
  }

  private static boolean isUpper(char c) {
    return c >= 'A' && c <= 'Z';
  }
}
