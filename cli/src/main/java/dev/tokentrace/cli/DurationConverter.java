package dev.tokentrace.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations as people write them: {@code 250ms}, {@code 2s}, {@code 5m}, {@code 1h}. */
final class DurationConverter implements ITypeConverter<Duration> {
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher matcher = DURATION.matcher(value.strip());
    if (!matcher.matches()) {
      throw new TypeConversionException(
          "'" + value + "' is not a duration like 250ms, 2s, 5m or 1h");
    }
    long amount = Long.parseLong(matcher.group(1));
    switch (matcher.group(2)) {
      case "ms":
        return Duration.ofMillis(amount);
      case "s":
        return Duration.ofSeconds(amount);
      case "m":
        return Duration.ofMinutes(amount);
      default:
        return Duration.ofHours(amount);
    }
  }
}
