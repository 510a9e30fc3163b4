package dev.tokentrace.parse.vllm;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.Year;
import java.time.ZoneId;
import org.jspecify.annotations.Nullable;

/**
 * Turns vLLM's {@code MM-DD HH:MM:SS} (local time, no year, no zone;
 * docs/formats/vllm.md#record-header) into an instant. The year starts at {@link
 * dev.tokentrace.parse.ParseSettings#startYear()} and goes up by one when the month jumps back by
 * ten or more (December to January, or across a gap of up to two months); a line whose month is ten
 * or more ahead of the current one is a late line from before the last rollover and gets the
 * previous year without moving the clock. Smaller backward steps (processes writing out of order)
 * keep the current year. Not thread-safe: one per source.
 */
final class LogClock {
  /** Month jumps at least this large are a year boundary, smaller ones are disorder. */
  private static final int YEAR_JUMP = 10;

  private final ZoneId zone;
  private int year;
  private int month;
  private long cachedMinute = -1;
  private long cachedEpochSecond;

  LogClock(ZoneId zone, int startYear) {
    this.zone = zone;
    this.year = startYear;
  }

  /** The instant of a header timestamp, or null when the date does not exist in its year. */
  @Nullable Instant instant(int lineMonth, int day, int hour, int minute, int second) {
    int lineYear = yearOf(lineMonth);
    if (day > Month.of(lineMonth).length(Year.isLeap(lineYear))) {
      return null;
    }
    advance(lineMonth);
    long minuteKey = ((((long) lineYear * 16 + lineMonth) * 32 + day) * 24 + hour) * 60 + minute;
    if (minuteKey != cachedMinute) {
      // one zone lookup per minute: stats and request lines arrive many per minute
      cachedEpochSecond =
          LocalDateTime.of(lineYear, lineMonth, day, hour, minute).atZone(zone).toEpochSecond();
      cachedMinute = minuteKey;
    }
    return Instant.ofEpochSecond(cachedEpochSecond + second);
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
}
