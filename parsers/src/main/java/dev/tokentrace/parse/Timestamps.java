package dev.tokentrace.parse;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The one reader of the timestamps that engines and client tools write (docs/formats/timestamps.md
 * lists each format with its source). Two kinds:
 *
 * <ul>
 *   <li>A client's request start ({@link #zonedOrEpoch}): ISO-8601 with a zone or a Unix epoch
 *       number in s, ms, us or ns (docs/formats/clients.md#our-client-csv), an instant by itself.
 *   <li>An engine's local wall-clock time ({@link Local}, one per source): no zone, sometimes no
 *       year or no date, turned into an instant in the configured zone: SGLang's prefixes and ISO
 *       fields (docs/formats/sglang.md#log-prefix), vLLM's {@code MM-DD HH:MM:SS}
 *       (docs/formats/vllm.md#record-header), TensorRT-LLM's Python logger, iteration log,
 *       iteration stats JSON and Triton glog times (docs/formats/trtllm.md#python-logger).
 * </ul>
 *
 * The static shape helpers read digits in place, without substrings: the engines' parsers call them
 * once per line.
 */
public final class Timestamps {
  /** Length of {@code YYYY-MM-DD HH:MM:SS}. */
  public static final int ISO_LOCAL_LENGTH = 19;

  private static final int MAX_FRACTION_DIGITS = 9;
  private static final int SECONDS_PER_DAY = 86_400;
  private static final int HALF_DAY = SECONDS_PER_DAY / 2;
  private static final int[] POWERS = {
    1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000
  };

  private Timestamps() {}

  // ---------------------------------------------------------------- shapes

  /** The non-negative decimal in {@code count} (1–9) characters at {@code from}, or -1. */
  public static int digits(CharSequence text, int from, int count) {
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

  /** Seconds of the day of a time, or -1 when a field is negative or out of range. */
  public static int secondOfDay(int hour, int minute, int second) {
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
      return -1;
    }
    return hour * 3600 + minute * 60 + second;
  }

  /** {@code HH:MM:SS} at {@code start} as seconds of the day; -1 when malformed or out of range. */
  public static int secondOfDay(CharSequence text, int start) {
    if (!isTime(text, start)) {
      return -1;
    }
    return secondOfDay(
        digits(text, start, 2), digits(text, start + 3, 2), digits(text, start + 6, 2));
  }

  /** {@code HH:MM:SS} at {@code start}, shape only. */
  public static boolean isTime(CharSequence text, int start) {
    return start >= 0
        && start + 8 <= text.length()
        && digits(text, start, 2) >= 0
        && text.charAt(start + 2) == ':'
        && digits(text, start + 3, 2) >= 0
        && text.charAt(start + 5) == ':'
        && digits(text, start + 6, 2) >= 0;
  }

  /**
   * The {@code count} (1–9) digits at {@code start} as the nanoseconds of a decimal fraction
   * ({@code 5} → 500 ms), or -1 when they are not digits.
   */
  public static int fractionNanos(CharSequence text, int start, int count) {
    int value = digits(text, start, count);
    return value < 0 ? -1 : value * POWERS[MAX_FRACTION_DIGITS - count];
  }

  /**
   * Length of the local date-time {@code YYYY-MM-DD HH:MM:SS} or {@code YYYY-MM-DDTHH:MM:SS} at
   * {@code start}, with its fraction after {@code .} or {@code ,} (1–9 digits) if any; -1 when
   * there is none. Python's {@code asctime} and {@code datetime.isoformat()} write these
   * (docs/formats/sglang.md#log-prefix).
   */
  public static int isoLocalLength(CharSequence text, int start) {
    if (start < 0 || start + ISO_LOCAL_LENGTH > text.length() || !isIsoLocal(text, start)) {
      return -1;
    }
    int end = start + ISO_LOCAL_LENGTH;
    if (end + 1 < text.length() && (text.charAt(end) == '.' || text.charAt(end) == ',')) {
      int digits = end + 1;
      while (digits < text.length() && text.charAt(digits) >= '0' && text.charAt(digits) <= '9') {
        digits++;
      }
      int count = digits - end - 1;
      if (count > 0 && count <= MAX_FRACTION_DIGITS) {
        end += 1 + count;
      }
    }
    return end - start;
  }

  /**
   * Digits of the fraction in an ISO local date-time of {@code length} characters (0 when none).
   */
  public static int isoFractionDigits(int length) {
    return length > ISO_LOCAL_LENGTH ? length - ISO_LOCAL_LENGTH - 1 : 0;
  }

  private static boolean isIsoLocal(CharSequence text, int start) {
    char separator = text.charAt(start + 10);
    return digits(text, start, 4) >= 0
        && text.charAt(start + 4) == '-'
        && digits(text, start + 5, 2) >= 0
        && text.charAt(start + 7) == '-'
        && digits(text, start + 8, 2) >= 0
        && (separator == ' ' || separator == 'T')
        && isTime(text, start + 11);
  }

  // ---------------------------------------------------------------- zoned or epoch (clients)

  private static final Pattern EPOCH = Pattern.compile("\\d+(\\.\\d+)?");
  private static final Pattern SPACE_SEPARATED = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d.*");
  private static final long FROM_S = Instant.parse("2000-01-01T00:00:00Z").getEpochSecond();
  private static final long UNTIL_S = Instant.parse("2100-01-01T00:00:00Z").getEpochSecond();
  private static final int[] UNIT_DIGITS = {0, 3, 6, 9}; // s, ms, us, ns

  /** Why a text is not a timestamp, in words fit for an error message (never the text itself). */
  public static final class BadTimestamp extends Exception {
    private static final long serialVersionUID = 1L;

    /** The reason, or null when the text is simply not one of the accepted shapes. */
    private final @Nullable String reason;

    BadTimestamp(@Nullable String reason) {
      super(reason == null ? "not a timestamp" : reason, null, false, false);
      this.reason = reason;
    }

    public @Nullable String reason() {
      return reason;
    }
  }

  /**
   * A client's request start: ISO-8601 with a zone or {@code Z} (a space instead of the {@code T}
   * is accepted), or a Unix epoch number in seconds, milliseconds, microseconds or nanoseconds
   * (docs/formats/clients.md#our-client-csv).
   *
   * <p>The epoch unit is decided by magnitude: it is the one unit that puts the value between
   * 2000-01-01 and 2100-01-01 (10 integer digits for seconds, 13 for ms, 16 for us, 19 for ns). The
   * four windows are a factor 1000 apart and span only a factor 4.3 each, so they never overlap,
   * and a value in none of them (a monotonic clock reading, a duration, a typo) is rejected rather
   * than guessed. Nanosecond values are parsed exactly (they exceed a double's 53 bits).
   *
   * @param text stripped, non-empty
   */
  public static Instant zonedOrEpoch(String text) throws BadTimestamp {
    if (EPOCH.matcher(text).matches()) {
      return epoch(text);
    }
    String iso = SPACE_SEPARATED.matcher(text).matches() ? text.replaceFirst(" ", "T") : text;
    try {
      return OffsetDateTime.parse(iso).toInstant();
    } catch (DateTimeParseException e) {
      throw new BadTimestamp(isLocal(iso) ? "no zone: add Z or an offset" : null);
    }
  }

  private static Instant epoch(String text) throws BadTimestamp {
    BigDecimal value = new BigDecimal(text);
    for (int digits : UNIT_DIGITS) {
      BigDecimal seconds = value.movePointLeft(digits);
      if (seconds.compareTo(BigDecimal.valueOf(FROM_S)) >= 0
          && seconds.compareTo(BigDecimal.valueOf(UNTIL_S)) < 0) {
        long whole = seconds.setScale(0, RoundingMode.FLOOR).longValueExact();
        long nanos =
            seconds
                .subtract(BigDecimal.valueOf(whole))
                .movePointRight(9)
                .setScale(0, RoundingMode.FLOOR)
                .longValue();
        return Instant.ofEpochSecond(whole, nanos);
      }
    }
    throw new BadTimestamp("epoch not in 2000-2099 as s, ms, us or ns");
  }

  private static boolean isLocal(String text) {
    try {
      LocalDateTime.parse(text);
      return true;
    } catch (DateTimeParseException e) {
      return false; // not local either: a plain bad value
    }
  }

  // ---------------------------------------------------------------- local wall-clock times

  /**
   * Local wall-clock times of one source turned into instants in its zone. Not thread-safe: one per
   * source, because it remembers three things across lines:
   *
   * <ul>
   *   <li><b>The year of yearless dates</b> (vLLM's {@code MM-DD}, Triton's glog {@code MMDD}). It
   *       starts at the configured year and goes up by one when the month jumps back by ten or more
   *       (December to January, or across a gap of up to two months); a line whose month is ten or
   *       more ahead of the current one is a late line from before the last rollover and gets the
   *       previous year without moving the clock. Smaller backward steps (processes or ranks
   *       writing out of order) keep the current year (docs/formats/timestamps.md#yearless-dates).
   *   <li><b>The last full date</b>, for time-only lines (SGLang v0.2.14 – v0.3.3 print {@code
   *       [HH:MM:SS TP0]}, docs/formats/sglang.md#log-prefix): such a line gets a timestamp only
   *       after a line with a full local date was seen in the same source; its date is the last
   *       full date, moved one day forward when the time of day goes back by more than twelve hours
   *       (midnight). Otherwise it is null.
   *   <li><b>Caches</b>: the epoch day per date and the zone offset per local minute (transitions
   *       fall on minute boundaries), so the hot path does arithmetic only.
   * </ul>
   *
   * <p>Zone rules: a local time in a DST overlap takes the earlier offset and one in a gap the
   * offset before the gap, as {@link java.time.ZonedDateTime#ofLocal} does. Dates before 1970 or
   * after 9999 are not log times: null, as for 31 February or hour 24.
   */
  public static final class Local {
    /** Month jumps at least this large are a year boundary, smaller ones are disorder. */
    private static final int YEAR_JUMP = 10;

    private final ZoneRules rules;
    private final @Nullable ZoneOffset fixedOffset;

    private int cachedDateKey = -1;
    private long cachedEpochDay;
    private long cachedMinute = Long.MIN_VALUE;
    private int cachedOffsetSeconds;

    private long anchorEpochDay = Long.MIN_VALUE;
    private int anchorSecondOfDay;

    private int year;
    private int month;

    /** {@code startYear} is the year of the first yearless date. */
    public Local(ZoneId zone, int startYear) {
      this.rules = zone.getRules();
      this.fixedOffset = rules.isFixedOffset() ? rules.getOffset(Instant.EPOCH) : null;
      this.year = startYear;
    }

    /**
     * The instant of a full local date-time, or null when the fields are not a real date or time
     * (bad input). Also makes this date the anchor for later time-only lines.
     */
    public @Nullable Instant of(int year, int month, int day, int secondOfDay, int nanos) {
      long epochDay = epochDay(year, month, day);
      if (epochDay == Long.MIN_VALUE || !validTime(secondOfDay, nanos)) {
        return null;
      }
      anchorEpochDay = epochDay;
      anchorSecondOfDay = secondOfDay;
      return toInstant(epochDay * SECONDS_PER_DAY + secondOfDay, nanos);
    }

    /** The instant of a time-only line, dated as the class comment says; null when undatable. */
    public @Nullable Instant ofTimeOnly(int secondOfDay, int nanos) {
      if (anchorEpochDay == Long.MIN_VALUE || !validTime(secondOfDay, nanos)) {
        return null;
      }
      if (secondOfDay < anchorSecondOfDay - HALF_DAY) {
        anchorEpochDay++;
      }
      anchorSecondOfDay = secondOfDay;
      return toInstant(anchorEpochDay * SECONDS_PER_DAY + secondOfDay, nanos);
    }

    /**
     * The instant of a date without a year, the year as the class comment says; null when the date
     * does not exist in that year or the time is invalid (then the year does not move).
     */
    public @Nullable Instant ofYearless(int month, int day, int secondOfDay, int nanos) {
      if (month < 1 || month > 12) {
        return null;
      }
      int lineYear = yearOf(month);
      long epochDay = epochDay(lineYear, month, day);
      if (epochDay == Long.MIN_VALUE || !validTime(secondOfDay, nanos)) {
        return null;
      }
      advance(month);
      return toInstant(epochDay * SECONDS_PER_DAY + secondOfDay, nanos);
    }

    /**
     * The ISO local date-time of {@code length} characters at {@code start}, as measured by {@link
     * #isoLocalLength}; null when its fields are not a real date or time.
     */
    public @Nullable Instant isoLocal(CharSequence text, int start, int length) {
      int nanos = 0;
      int fraction = isoFractionDigits(length);
      if (fraction > 0) {
        nanos = fractionNanos(text, start + ISO_LOCAL_LENGTH + 1, fraction);
      }
      return of(
          digits(text, start, 4),
          digits(text, start + 5, 2),
          digits(text, start + 8, 2),
          secondOfDay(text, start + 11),
          nanos);
    }

    /**
     * TensorRT-LLM's Python logger {@code MM/DD/YYYY-HH:MM:SS} at {@code from}
     * (docs/formats/trtllm.md#python-logger); null when malformed.
     */
    public @Nullable Instant trtllmPythonHeader(CharSequence text, int from) {
      if (text.length() < from + 19
          || text.charAt(from + 2) != '/'
          || text.charAt(from + 5) != '/'
          || text.charAt(from + 10) != '-') {
        return null;
      }
      return of(
          digits(text, from + 6, 4),
          digits(text, from, 2),
          digits(text, from + 3, 2),
          secondOfDay(text, from + 11),
          0);
    }

    /**
     * TensorRT-LLM's iteration log {@code YYYY-MM-DD HH:MM:SS} spanning exactly the range, no
     * fraction (docs/formats/trtllm.md#iteration-log-line).
     */
    public @Nullable Instant trtllmIterationLog(CharSequence text, int from, int to) {
      if (to - from != ISO_LOCAL_LENGTH
          || text.charAt(from + 4) != '-'
          || text.charAt(from + 7) != '-'
          || text.charAt(from + 10) != ' ') {
        return null;
      }
      return of(
          digits(text, from, 4),
          digits(text, from + 5, 2),
          digits(text, from + 8, 2),
          secondOfDay(text, from + 11),
          0);
    }

    /**
     * TensorRT-LLM's IterationStats {@code timestamp}: {@code MM-DD-YYYY HH:MM:SS} with an optional
     * fraction of up to 9 digits (µs since 0.15, none in 2023–2024 Triton-era builds;
     * docs/formats/trtllm.md#iteration-stats-json).
     */
    public @Nullable Instant trtllmStats(String text) {
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
        nanos = fractionNanos(text, 20, length - 20);
        if (nanos < 0) {
          return null;
        }
      }
      return of(
          digits(text, 6, 4), digits(text, 0, 2), digits(text, 3, 2), secondOfDay(text, 11), nanos);
    }

    /**
     * Triton's glog {@code MMDD HH:MM:SS.uuuuuu} at {@code from}
     * (docs/formats/trtllm.md#triton-lines): a yearless date ({@link #ofYearless}).
     */
    public @Nullable Instant tritonGlog(CharSequence text, int from) {
      int micros = digits(text, from + 14, 6);
      if (micros < 0) {
        return null;
      }
      return ofYearless(
          digits(text, from, 2),
          digits(text, from + 2, 2),
          secondOfDay(text, from + 5),
          micros * 1000);
    }

    private int yearOf(int lineMonth) {
      if (month == 0 || lineMonth == month) {
        return year;
      }
      if (month - lineMonth >= YEAR_JUMP) {
        return year + 1;
      }
      if (lineMonth - month >= YEAR_JUMP) {
        return year - 1;
      }
      return year;
    }

    private void advance(int lineMonth) {
      if (month == 0) {
        month = lineMonth;
      } else if (month - lineMonth >= YEAR_JUMP) {
        year++;
        month = lineMonth;
      } else if (lineMonth > month && lineMonth - month < YEAR_JUMP) {
        month = lineMonth;
      }
    }

    private static boolean validTime(int secondOfDay, int nanos) {
      return secondOfDay >= 0
          && secondOfDay < SECONDS_PER_DAY
          && nanos >= 0
          && nanos < 1_000_000_000;
    }

    private Instant toInstant(long localEpochSecond, int nanos) {
      return Instant.ofEpochSecond(localEpochSecond - offsetSeconds(localEpochSecond), nanos);
    }

    private long epochDay(int year, int month, int day) {
      if (year < 0 || month < 0 || day < 0) {
        return Long.MIN_VALUE;
      }
      int key = year * 10_000 + month * 100 + day;
      if (key == cachedDateKey) {
        return cachedEpochDay;
      }
      if (year < 1970 || year > 9999 || month < 1 || month > 12 || day < 1) {
        return Long.MIN_VALUE;
      }
      if (day > Month.of(month).length(Year.isLeap(year))) {
        return Long.MIN_VALUE;
      }
      try {
        cachedEpochDay = LocalDate.of(year, month, day).toEpochDay();
      } catch (DateTimeException e) {
        return Long.MIN_VALUE;
      }
      cachedDateKey = key;
      return cachedEpochDay;
    }

    private int offsetSeconds(long localEpochSecond) {
      if (fixedOffset != null) {
        return fixedOffset.getTotalSeconds();
      }
      long minute = Math.floorDiv(localEpochSecond, 60);
      if (minute != cachedMinute) {
        cachedMinute = minute;
        cachedOffsetSeconds = offsetAt(LocalDateTime.ofEpochSecond(minute * 60, 0, ZoneOffset.UTC));
      }
      return cachedOffsetSeconds;
    }

    private int offsetAt(LocalDateTime local) {
      List<ZoneOffset> valid = rules.getValidOffsets(local);
      if (!valid.isEmpty()) {
        return valid.get(0).getTotalSeconds();
      }
      ZoneOffsetTransition gap = rules.getTransition(local);
      return gap == null ? 0 : gap.getOffsetBefore().getTotalSeconds();
    }
  }
}
