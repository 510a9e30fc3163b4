package dev.tokentrace.parse.trtllm;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * Turns the local wall-clock times TensorRT-LLM prints into UTC instants
 * (docs/formats/trtllm.md#python-logger, docs/formats/trtllm.md#triton-lines,
 * docs/formats/trtllm.md#iteration-stats-json, docs/formats/trtllm.md#iteration-log-line). All of
 * them are local time without a zone, so {@link #zone} applies. Caches the last second, because
 * consecutive lines almost always share it. Not thread-safe.
 */
final class LogTimes {
  private final ZoneId zone;
  private long cachedSecondKey = Long.MIN_VALUE;
  private @Nullable Instant cachedSecond;
  private int tritonYear;
  private int tritonMonth;

  LogTimes(ZoneId zone, int startYear) {
    this.zone = zone;
    this.tritonYear = startYear;
  }

  /**
   * Python logger {@code MM/DD/YYYY-HH:MM:SS} at {@code from}
   * (docs/formats/trtllm.md#python-logger); null when malformed.
   */
  @Nullable Instant pythonHeader(String text, int from) {
    if (text.length() < from + 19
        || text.charAt(from + 2) != '/'
        || text.charAt(from + 5) != '/'
        || text.charAt(from + 10) != '-') {
      return null;
    }
    return clock(
        digits(text, from + 6, 4),
        digits(text, from, 2),
        digits(text, from + 3, 2),
        text,
        from + 11,
        0);
  }

  /**
   * Iteration log {@code YYYY-MM-DD HH:MM:SS} spanning exactly the range
   * (docs/formats/trtllm.md#iteration-log-line).
   */
  @Nullable Instant isoLocal(String text, int from, int to) {
    if (to - from != 19
        || text.charAt(from + 4) != '-'
        || text.charAt(from + 7) != '-'
        || text.charAt(from + 10) != ' ') {
      return null;
    }
    return clock(
        digits(text, from, 4),
        digits(text, from + 5, 2),
        digits(text, from + 8, 2),
        text,
        from + 11,
        0);
  }

  /**
   * IterationStats {@code timestamp}: {@code MM-DD-YYYY HH:MM:SS} with an optional fraction of up
   * to 9 digits (µs since 0.15, none in 2023–2024 Triton-era builds;
   * docs/formats/trtllm.md#iteration-stats-json).
   */
  @Nullable Instant statsTimestamp(String text) {
    int length = text.length();
    if (length < 19
        || length == 20
        || length > 29
        || text.charAt(2) != '-'
        || text.charAt(5) != '-'
        || text.charAt(10) != ' ') {
      return null;
    }
    int nanos = 0;
    if (length > 19) {
      if (text.charAt(19) != '.') {
        return null;
      }
      int fraction = digits(text, 20, length - 20);
      if (fraction < 0) {
        return null;
      }
      nanos = fraction * POWERS[9 - (length - 20)];
    }
    return clock(digits(text, 6, 4), digits(text, 0, 2), digits(text, 3, 2), text, 11, nanos);
  }

  /**
   * Triton glog {@code MMDD HH:MM:SS.uuuuuu} at {@code from} (docs/formats/trtllm.md#triton-lines).
   * The year is not logged: it starts at the configured year and goes up by one when the month goes
   * back (December to January).
   */
  @Nullable Instant triton(String text, int from) {
    int month = digits(text, from, 2);
    int micros = digits(text, from + 14, 6);
    if (month < 1 || month > 12 || micros < 0) {
      return null;
    }
    if (tritonMonth != 0 && month < tritonMonth) {
      tritonYear++;
    }
    tritonMonth = month;
    return clock(tritonYear, month, digits(text, from + 2, 2), text, from + 5, micros * 1000);
  }

  /** {@code HH:MM:SS} at {@code from} on the given date, plus {@code nanos}; null if invalid. */
  private @Nullable Instant clock(int year, int month, int day, String text, int from, int nanos) {
    if (text.charAt(from + 2) != ':' || text.charAt(from + 5) != ':') {
      return null;
    }
    int hour = digits(text, from, 2);
    int minute = digits(text, from + 3, 2);
    int second = digits(text, from + 6, 2);
    if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
      return null;
    }
    long key = ((((year * 16L + month) * 32 + day) * 32 + hour) * 64 + minute) * 64 + second;
    if (key != cachedSecondKey) {
      try {
        cachedSecond =
            LocalDateTime.of(year, month, day, hour, minute, second).atZone(zone).toInstant();
      } catch (DateTimeException e) {
        // Month 13, 31 February, hour 24: not a time, so the caller reports a bad timestamp.
        return null;
      }
      cachedSecondKey = key;
    }
    Instant second0 = cachedSecond;
    return nanos == 0 || second0 == null ? second0 : second0.plusNanos(nanos);
  }

  private static final int[] POWERS = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000
  };

  /** The non-negative decimal in {@code count} characters at {@code from}, or -1. */
  static int digits(CharSequence text, int from, int count) {
    if (from < 0 || count < 1 || count > 9 || from + count > text.length()) {
      return -1;
    }
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
