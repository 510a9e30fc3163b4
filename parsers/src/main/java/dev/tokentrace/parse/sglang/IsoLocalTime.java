package dev.tokentrace.parse.sglang;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Reads local date-times written as {@code YYYY-MM-DD HH:MM:SS} or {@code YYYY-MM-DDTHH:MM:SS},
 * optionally followed by a fraction after {@code .} or {@code ,}: SGLang's prefix with {@code
 * SGLANG_LOG_MS} (docs/formats/sglang.md#log-prefix), Python's default {@code asctime} in
 * embedders' prefixes ({@code 2025-12-04 20:35:53,123}), {@code datetime.isoformat()} in the batch
 * {@code timestamp:} field (docs/formats/sglang.md#prefill-batch-line) and in JSON request logs
 * (docs/formats/sglang.md#metrics-export-file). Stateless.
 */
final class IsoLocalTime {
  /** {@code YYYY-MM-DD HH:MM:SS}. */
  static final int BASE_LENGTH = 19;

  private static final int MAX_FRACTION_DIGITS = 9;

  private IsoLocalTime() {}

  /**
   * Length of the date-time starting at {@code start}, fraction included, or -1 when there is none.
   */
  static int length(CharSequence text, int start) {
    if (start + BASE_LENGTH > text.length() || !isBase(text, start)) {
      return -1;
    }
    int end = start + BASE_LENGTH;
    if (end + 1 < text.length() && (text.charAt(end) == '.' || text.charAt(end) == ',')) {
      int digits = digitsFrom(text, end + 1);
      if (digits > 0 && digits <= MAX_FRACTION_DIGITS) {
        end += 1 + digits;
      }
    }
    return end - start;
  }

  /** Digits of the fraction in a date-time of {@code length} characters (0 when none). */
  static int fractionDigits(int length) {
    return length > BASE_LENGTH ? length - BASE_LENGTH - 1 : 0;
  }

  /**
   * The instant of the date-time of {@code length} characters at {@code start} (as measured by
   * {@link #length}), or null when its fields are not a real date or time.
   */
  static @Nullable Instant parse(CharSequence text, int start, int length, LocalTimestamps clock) {
    int year = number(text, start, 4);
    int month = number(text, start + 5, 2);
    int day = number(text, start + 8, 2);
    int secondOfDay = secondOfDay(text, start + 11);
    int nanos = nanos(text, start + BASE_LENGTH + 1, fractionDigits(length));
    return clock.of(year, month, day, secondOfDay, nanos);
  }

  /** {@code HH:MM:SS} at {@code start} as seconds of the day; -1 when out of range. */
  static int secondOfDay(CharSequence text, int start) {
    int hour = number(text, start, 2);
    int minute = number(text, start + 3, 2);
    int second = number(text, start + 6, 2);
    if (hour > 23 || minute > 59 || second > 59) {
      return -1;
    }
    return hour * 3600 + minute * 60 + second;
  }

  /** {@code HH:MM:SS} at {@code start}, shape only. */
  static boolean isTime(CharSequence text, int start) {
    return start + 8 <= text.length()
        && digits(text, start, 2)
        && text.charAt(start + 2) == ':'
        && digits(text, start + 3, 2)
        && text.charAt(start + 5) == ':'
        && digits(text, start + 6, 2);
  }

  /** The first {@code count} digits at {@code start} as nanoseconds of a fraction. */
  static int nanos(CharSequence text, int start, int count) {
    int nanos = 0;
    for (int i = 0; i < MAX_FRACTION_DIGITS; i++) {
      nanos = nanos * 10 + (i < count ? text.charAt(start + i) - '0' : 0);
    }
    return nanos;
  }

  private static boolean isBase(CharSequence text, int start) {
    char separator = text.charAt(start + 10);
    return digits(text, start, 4)
        && text.charAt(start + 4) == '-'
        && digits(text, start + 5, 2)
        && text.charAt(start + 7) == '-'
        && digits(text, start + 8, 2)
        && (separator == ' ' || separator == 'T')
        && isTime(text, start + 11);
  }

  private static int digitsFrom(CharSequence text, int start) {
    int i = start;
    while (i < text.length() && isDigit(text.charAt(i))) {
      i++;
    }
    return i - start;
  }

  static boolean digits(CharSequence text, int start, int count) {
    for (int i = start; i < start + count; i++) {
      if (!isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  static int number(CharSequence text, int start, int count) {
    int value = 0;
    for (int i = start; i < start + count; i++) {
      value = value * 10 + text.charAt(i) - '0';
    }
    return value;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
