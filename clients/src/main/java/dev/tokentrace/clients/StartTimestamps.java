package dev.tokentrace.clients;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Parses a client's request start time: ISO-8601 with a zone or {@code Z}, or a Unix epoch number
 * in seconds, milliseconds, microseconds or nanoseconds.
 *
 * <p>The epoch unit is decided by magnitude: it is the one unit that puts the value between
 * 2000-01-01 and 2100-01-01 (10 integer digits for seconds, 13 for ms, 16 for us, 19 for ns). The
 * four windows are a factor 1000 apart and span only a factor 4.3 each, so they never overlap, and
 * a value in none of them (a monotonic clock reading, a duration, a typo) is rejected rather than
 * guessed. Nanosecond values are parsed exactly (they exceed a double's 53 bits).
 */
final class StartTimestamps {
  private static final Pattern EPOCH = Pattern.compile("\\d+(\\.\\d+)?");
  private static final Pattern SPACE_SEPARATED = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d.*");
  private static final long FROM_S = Instant.parse("2000-01-01T00:00:00Z").getEpochSecond();
  private static final long UNTIL_S = Instant.parse("2100-01-01T00:00:00Z").getEpochSecond();
  private static final int[] UNIT_DIGITS = {0, 3, 6, 9}; // s, ms, us, ns

  private StartTimestamps() {}

  static Instant parse(String raw) throws BadField {
    String text = raw.strip();
    if (text.isEmpty()) {
      throw new BadField("missing value for 'start_ts'");
    }
    if (EPOCH.matcher(text).matches()) {
      return epoch(text, raw);
    }
    return iso(SPACE_SEPARATED.matcher(text).matches() ? text.replaceFirst(" ", "T") : text, raw);
  }

  private static Instant epoch(String text, String raw) throws BadField {
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
    throw new BadField(
        "bad 'start_ts' value "
            + ClientFields.quote(raw)
            + " (epoch not in 2000-2099 as s, ms, us or ns)");
  }

  private static Instant iso(String text, String raw) throws BadField {
    Instant instant;
    try {
      instant = OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      if (isLocal(text)) {
        throw new BadField(
            "bad 'start_ts' value " + ClientFields.quote(raw) + " (no zone: add Z or an offset)");
      }
      throw new BadField("bad 'start_ts' value " + ClientFields.quote(raw));
    }
    ClientRow.plausibleStart(instant);
    return instant;
  }

  private static boolean isLocal(String text) {
    try {
      LocalDateTime.parse(text);
      return true;
    } catch (DateTimeParseException e) {
      return false; // not local either: the caller reports a plain bad value
    }
  }
}
