package dev.tokentrace.parse;

import static java.util.Objects.requireNonNull;

import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * What a parser needs to know that the log does not say.
 *
 * @param instance the server's name, stamped on every event
 * @param zone the zone of timestamps logged without one (vLLM, SGLang and TensorRT-LLM all log
 *     local time); {@link #DEFAULT_ZONE} when unknown, since containers usually run in UTC
 * @param startYear the year of the first timestamp in a log that prints no year (vLLM {@code
 *     MM-DD}, TensorRT-LLM time-only); parsers add one at each December to January rollover
 * @param gpuMap GPU telemetry: the instance of each GPU a file names ({@code --gpu-map})
 */
public record ParseSettings(String instance, ZoneId zone, int startYear, GpuMap gpuMap) {
  public static final String DEFAULT_INSTANCE = "default";
  public static final String DEFAULT_INSTANCE_DOC =
      "server name stamped on every event; one per inference server: 1-100 letters, digits, '.',"
          + " '_', ':' or '-', starting with a letter or digit";
  public static final ZoneId DEFAULT_ZONE = ZoneOffset.UTC;
  public static final String DEFAULT_ZONE_DOC =
      "zone of log timestamps that carry none (container logs are usually UTC)";

  public ParseSettings {
    requireNonNull(instance, "instance is null");
    requireNonNull(zone, "zone is null");
    requireNonNull(gpuMap, "gpuMap is null");
    if (instance.isBlank()) {
      throw new IllegalArgumentException("instance is blank");
    }
    if (startYear < 1970 || startYear > 9999) {
      throw new IllegalArgumentException("startYear out of range: " + startYear);
    }
  }

  /** Without a GPU map: every GPU of a telemetry file belongs to {@code instance}. */
  public ParseSettings(String instance, ZoneId zone, int startYear) {
    this(instance, zone, startYear, GpuMap.NONE);
  }

  /** Settings for tests and tools: the given instance and year, UTC. */
  public static ParseSettings of(String instance, int startYear) {
    return new ParseSettings(instance, DEFAULT_ZONE, startYear);
  }
}
