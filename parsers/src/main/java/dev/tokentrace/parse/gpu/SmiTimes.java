package dev.tokentrace.parse.gpu;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;

/**
 * nvidia-smi's local times: {@code 2026/12/01 22:49:36.123} in query CSV and {@code 20261201} +
 * {@code 22:49:36} in dmon/pmon with {@code -o DT} (docs/formats/gpu.md#timestamps).
 */
final class SmiTimes {
  private static final DateTimeFormatter QUERY =
      DateTimeFormatter.ofPattern("uuuu/MM/dd HH:mm:ss[.SSS]");
  private static final DateTimeFormatter DMON = DateTimeFormatter.ofPattern("uuuuMMdd HH:mm:ss");

  private SmiTimes() {}

  static @Nullable Instant query(String text, ZoneId zone) {
    try {
      return LocalDateTime.parse(text.strip(), QUERY).atZone(zone).toInstant();
    } catch (DateTimeParseException e) {
      return null; // the caller rejects the row naming the cell
    }
  }

  static @Nullable Instant dmon(String date, String time, ZoneId zone) {
    try {
      return LocalDateTime.parse(date + " " + time, DMON).atZone(zone).toInstant();
    } catch (DateTimeParseException e) {
      return null; // the caller rejects the row naming the cells
    }
  }
}
