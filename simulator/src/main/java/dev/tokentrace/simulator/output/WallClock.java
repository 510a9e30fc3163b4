package dev.tokentrace.simulator.output;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Turns model time (microseconds since the run started) into wall-clock text in one zone, in the
 * shapes the engines print. Caches the calendar fields of the current second, because consecutive
 * lines almost always fall in the same second. Not thread-safe.
 */
final class WallClock {
  private final long startEpochUs;
  private final ZoneId zone;
  private long cachedSecond = Long.MIN_VALUE;
  private int year;
  private int month;
  private int day;
  private int hour;
  private int minute;
  private int second;

  WallClock(Instant start, ZoneId zone) {
    this.startEpochUs =
        Math.addExact(
            Math.multiplyExact(start.getEpochSecond(), 1_000_000L), start.getNano() / 1000);
    this.zone = zone;
  }

  /** Epoch microseconds of a model time. */
  long epochUs(long simUs) {
    return startEpochUs + simUs;
  }

  private void load(long simUs) {
    long epochSecond = Math.floorDiv(epochUs(simUs), 1_000_000L);
    if (epochSecond == cachedSecond) {
      return;
    }
    ZoneOffset offset = zone.getRules().getOffset(Instant.ofEpochSecond(epochSecond));
    LocalDateTime time = LocalDateTime.ofEpochSecond(epochSecond, 0, offset);
    cachedSecond = epochSecond;
    year = time.getYear();
    month = time.getMonthValue();
    day = time.getDayOfMonth();
    hour = time.getHour();
    minute = time.getMinute();
    second = time.getSecond();
  }

  private int micros(long simUs) {
    return (int) Math.floorMod(epochUs(simUs), 1_000_000L);
  }

  /** {@code MM-dd HH:mm:ss} (vLLM's {@code %m-%d %H:%M:%S}). */
  void monthDayTime(StringBuilder out, long simUs) {
    load(simUs);
    pad2(out, month).append('-');
    pad2(out, day).append(' ');
    time(out);
  }

  /** {@code yyyy-MM-dd HH:mm:ss}, plus {@code .SSS} when {@code millis} (SGLang). */
  void dateTime(StringBuilder out, long simUs, boolean millis) {
    load(simUs);
    out.append(year).append('-');
    pad2(out, month).append('-');
    pad2(out, day).append(' ');
    time(out);
    if (millis) {
      out.append('.');
      pad(out, micros(simUs) / 1000, 3);
    }
  }

  /** {@code MM/dd/yyyy-HH:mm:ss} (TensorRT-LLM Python logger). */
  void slashDateTime(StringBuilder out, long simUs) {
    load(simUs);
    pad2(out, month).append('/');
    pad2(out, day).append('/').append(year).append('-');
    time(out);
  }

  /** {@code MM-dd-yyyy HH:mm:ss.ffffff} (TensorRT-LLM IterationStats timestamp). */
  void dashedMicros(StringBuilder out, long simUs) {
    load(simUs);
    pad2(out, month).append('-');
    pad2(out, day).append('-').append(year).append(' ');
    time(out).append('.');
    pad(out, micros(simUs), 6);
  }

  /** {@code yyyy-MM-dd'T'HH:mm:ss.ffffff} plus {@code Z} when the zone is UTC. */
  void isoMicros(StringBuilder out, long simUs) {
    load(simUs);
    out.append(year).append('-');
    pad2(out, month).append('-');
    pad2(out, day).append('T');
    time(out).append('.');
    pad(out, micros(simUs), 6);
    if (zone.equals(ZoneOffset.UTC)) {
      out.append('Z');
    }
  }

  /** {@code yyyyMMdd_HH}, the hour key of SGLang's metrics export file name. */
  String hourKey(long simUs) {
    load(simUs);
    StringBuilder out = new StringBuilder(11).append(year);
    pad2(out, month);
    pad2(out, day).append('_');
    return pad2(out, hour).toString();
  }

  private StringBuilder time(StringBuilder out) {
    pad2(out, hour).append(':');
    pad2(out, minute).append(':');
    return pad2(out, second);
  }

  private static StringBuilder pad2(StringBuilder out, int value) {
    if (value < 10) {
      out.append('0');
    }
    return out.append(value);
  }

  private static void pad(StringBuilder out, int value, int width) {
    for (int limit = 10, digits = 1; digits < width; digits++, limit *= 10) {
      if (value < limit) {
        out.append('0');
      }
    }
    out.append(value);
  }
}
