package dev.tokentrace.parse.exposition;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One sample line of the Prometheus text format: {@code name{label="value",...} value [timestamp]}
 * (docs/formats/metrics.md#text-exposition). The value may be {@code NaN} or {@code ±Inf}; the
 * timestamp, when present, is milliseconds since the epoch. Labels keep their order.
 */
public record ExpositionLine(
    String name, Map<String, String> labels, double value, @Nullable Long timestampMs) {
  public ExpositionLine {
    requireNonNull(name, "name is null");
    labels = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(labels));
  }

  /** The label's value, or null. */
  public @Nullable String label(String key) {
    return labels.get(key);
  }
}
