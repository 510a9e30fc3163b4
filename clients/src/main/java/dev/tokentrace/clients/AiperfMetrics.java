package dev.tokentrace.clients;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * AIPerf's {@code metrics} object: {@code {"value": ..., "unit": "ms"}} pairs (
 * docs/formats/clients.md#aiperf), read in ms whatever time unit the pair declares, and the {@code
 * inter_chunk_latency} list.
 */
final class AiperfMetrics {
  private AiperfMetrics() {}

  /** {@code metrics.<name>} in ms: a {@code {value, unit}} pair with a time unit. */
  static @Nullable Double millis(JsonNode metrics, String name) throws BadField {
    JsonNode metric = metrics.get(name);
    if (metric == null || metric.isNull()) {
      return null;
    }
    if (metric.isNumber()) {
      return metric.doubleValue();
    }
    Double value = ClientJson.number(metric, "value", "metrics." + name);
    return value == null ? null : value * perMillisecond(name, metric);
  }

  static double perMillisecond(String name, JsonNode metric) throws BadField {
    String unit = ClientJson.text(metric, "unit");
    switch (unit == null ? "ms" : unit.toLowerCase(Locale.ROOT)) {
      case "ms":
        return 1;
      case "ns":
        return 1e-6;
      case "us":
      case "µs":
        return 1e-3;
      case "s":
      case "sec":
        return 1e3;
      default:
        throw new BadField("bad unit '" + unit + "' for 'metrics." + name + "'");
    }
  }

  static @Nullable Long tokens(JsonNode metrics, String name) throws BadField {
    JsonNode metric = metrics.get(name);
    if (metric == null || metric.isNull()) {
      return null;
    }
    return metric.isObject()
        ? ClientJson.integer(metric, "value", "metrics." + name)
        : ClientJson.integer(metrics, name, "metrics." + name);
  }

  /** Content chunks and the longest gap, from {@code inter_chunk_latency} (a list of gaps). */
  static @Nullable Chunks chunks(JsonNode metrics) throws BadField {
    JsonNode metric = metrics.get("inter_chunk_latency");
    JsonNode values = metric == null ? null : metric.get("value");
    if (values == null || !values.isArray()) {
      return null;
    }
    double scale = perMillisecond("inter_chunk_latency", metric);
    double max = 0;
    for (JsonNode gap : values) {
      if (!gap.isNumber()) {
        throw new BadField(
            "bad 'metrics.inter_chunk_latency' value " + ClientFields.quote(gap.toString()));
      }
      Double ms = ClientRow.duration("metrics.inter_chunk_latency", gap.doubleValue() * scale);
      max = Math.max(max, ms == null ? 0 : ms);
    }
    Double maxMs = ClientRow.duration("metrics.inter_chunk_latency", values.isEmpty() ? null : max);
    return new Chunks(values.size() + 1, maxMs);
  }

  record Chunks(int count, @Nullable Double maxMs) {}
}
