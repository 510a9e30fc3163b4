package dev.tokentrace.parse.vllm;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A line of KServe's own Python loggers, which share stdout with vLLM when KServe's
 * huggingfaceserver runs it (docs/formats/vllm-wild.md#kserve): {@code kserve} and other loggers
 * under KServe's config print {@code 2026-01-02 03:04:05.123 <pid> <logger> <LEVEL>
 * [<func>():<line>] <message>}, the {@code kserve.trace} logger {@code 2026-01-02 03:04:05.123
 * kserve.trace <message>} (per-request pre/post-processing and predict times). The time is local,
 * in the settings' zone.
 */
final class KServeLine {
  static final String TRACE_RULE = "kserve: trace";
  static final String LOG_RULE = "kserve: log";

  private static final Pattern PREFIX =
      Pattern.compile(
          "^(\\d{4})-(\\d{2})-(\\d{2}) (\\d{2}):(\\d{2}):(\\d{2})\\.(\\d{3}) (?:\\d+ )?"
              + "([A-Za-z_][\\w.]*) (?:(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \\[[^\\]]*\\] )?");

  final String logger;
  final String message;
  final @Nullable Instant ts;

  private KServeLine(String logger, String message, @Nullable Instant ts) {
    this.logger = logger;
    this.message = message;
    this.ts = ts;
  }

  boolean isTrace() {
    return logger.equals("kserve.trace");
  }

  /** The KServe line in {@code body}, or null when it has no KServe prefix. */
  static @Nullable KServeLine match(String body, ZoneId zone) {
    if (body.length() < 25 || !Ascii.isDigit(body.charAt(0)) || body.charAt(4) != '-') {
      return null;
    }
    Matcher matcher = PREFIX.matcher(body);
    if (!matcher.lookingAt()) {
      return null;
    }
    String logger = matcher.group(8);
    if (!logger.equals("kserve") && !logger.startsWith("kserve.") && !logger.startsWith("vllm")) {
      return null;
    }
    return new KServeLine(logger, body.substring(matcher.end()), time(matcher, zone));
  }

  private static @Nullable Instant time(Matcher matcher, ZoneId zone) {
    try {
      return LocalDateTime.of(
              Integer.parseInt(matcher.group(1)),
              Integer.parseInt(matcher.group(2)),
              Integer.parseInt(matcher.group(3)),
              Integer.parseInt(matcher.group(4)),
              Integer.parseInt(matcher.group(5)),
              Integer.parseInt(matcher.group(6)),
              Integer.parseInt(matcher.group(7)) * 1_000_000)
          .atZone(zone)
          .toInstant();
    } catch (DateTimeException e) {
      return null;
    }
  }
}
