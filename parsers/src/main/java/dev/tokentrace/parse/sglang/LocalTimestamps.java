package dev.tokentrace.parse.sglang;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Month;
import java.time.Year;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Turns SGLang's local wall-clock fields into UTC instants in the configured zone, and remembers
 * the last full date so that time-only prefixes (v0.2.14 – v0.3.3 print {@code [HH:MM:SS TP0]},
 * docs/formats/sglang.md#log-prefix) can be dated. Not thread-safe: one per parser.
 *
 * <p>Dating time-only lines: the log itself never says the date in those versions, and a date from
 * the options would be a guess, so a time-only line gets a timestamp only after a line with a full
 * local date was seen in the same source (an embedder's prefix, a JSON record, a later SGLang
 * generation in a concatenated file). Its date is the last full date, moved one day forward when
 * the time of day goes back by more than twelve hours (midnight). Otherwise the event's ts is null.
 *
 * <p>Zone rules: a local time in a DST overlap takes the earlier offset and one in a gap the offset
 * before the gap, as {@link java.time.ZonedDateTime#ofLocal} does. Offsets are cached per local
 * minute (transitions fall on minute boundaries) and dates per day, so the hot path does arithmetic
 * only.
 */
final class LocalTimestamps {
  private static final int SECONDS_PER_DAY = 86_400;
  private static final int HALF_DAY = SECONDS_PER_DAY / 2;

  private final ZoneRules rules;
  private final @Nullable ZoneOffset fixedOffset;

  private int cachedDateKey = -1;
  private long cachedEpochDay;
  private long cachedMinute = Long.MIN_VALUE;
  private int cachedOffsetSeconds;

  private long anchorEpochDay = Long.MIN_VALUE;
  private int anchorSecondOfDay;

  LocalTimestamps(ZoneId zone) {
    this.rules = zone.getRules();
    this.fixedOffset = rules.isFixedOffset() ? rules.getOffset(Instant.EPOCH) : null;
  }

  /**
   * The instant of a full local date-time, or null when the fields are not a real date or time (bad
   * input). Also makes this date the anchor for later time-only lines.
   */
  @Nullable Instant of(int year, int month, int day, int secondOfDay, int nanos) {
    long epochDay = epochDay(year, month, day);
    if (epochDay == Long.MIN_VALUE || !validTime(secondOfDay, nanos)) {
      return null;
    }
    anchorEpochDay = epochDay;
    anchorSecondOfDay = secondOfDay;
    return toInstant(epochDay * SECONDS_PER_DAY + secondOfDay, nanos);
  }

  /** The instant of a time-only line, dated as the class comment says; null when undatable. */
  @Nullable Instant ofTimeOnly(int secondOfDay, int nanos) {
    if (anchorEpochDay == Long.MIN_VALUE || !validTime(secondOfDay, nanos)) {
      return null;
    }
    if (secondOfDay < anchorSecondOfDay - HALF_DAY) {
      anchorEpochDay++;
    }
    anchorSecondOfDay = secondOfDay;
    return toInstant(anchorEpochDay * SECONDS_PER_DAY + secondOfDay, nanos);
  }

  private static boolean validTime(int secondOfDay, int nanos) {
    return secondOfDay >= 0 && secondOfDay < SECONDS_PER_DAY && nanos >= 0 && nanos < 1_000_000_000;
  }

  private Instant toInstant(long localEpochSecond, int nanos) {
    return Instant.ofEpochSecond(localEpochSecond - offsetSeconds(localEpochSecond), nanos);
  }

  private long epochDay(int year, int month, int day) {
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
    cachedDateKey = key;
    cachedEpochDay = LocalDate.of(year, month, day).toEpochDay();
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
