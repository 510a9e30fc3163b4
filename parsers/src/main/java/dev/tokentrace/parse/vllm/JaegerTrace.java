package dev.tokentrace.parse.vllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Jaeger's JSON trace export, as its UI's "Download JSON" and its query API {@code /api/traces}
 * write it (docs/formats/vllm-wild.md#jaeger): {@code {"data": [{"traceID", "spans": [{"traceID",
 * "spanID", "operationName", "startTime" (µs since the epoch), "duration" (µs), "tags": [{"key",
 * "type", "value"}], ...}], "processes": {...}}]}}. Each span is turned into the OTLP/JSON shape
 * {@link OtlpSpan} reads: {@code name}, {@code startTimeUnixNano}, {@code endTimeUnixNano} and
 * {@code attributes} with typed values. Stateless.
 */
final class JaegerTrace {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final BigInteger THOUSAND = BigInteger.valueOf(1000);

  private JaegerTrace() {}

  static boolean isExport(JsonNode root) {
    JsonNode data = root.get("data");
    if (data == null || !data.isArray()) {
      return false;
    }
    for (JsonNode trace : data) {
      return trace.has("spans") && trace.has("traceID");
    }
    return false;
  }

  static List<JsonNode> spans(JsonNode root) {
    List<JsonNode> spans = new ArrayList<>();
    for (JsonNode trace : root.path("data")) {
      for (JsonNode span : trace.path("spans")) {
        spans.add(otlp(span));
      }
    }
    return spans;
  }

  private static JsonNode otlp(JsonNode span) {
    ObjectNode otlp = NODES.objectNode();
    otlp.put("name", span.path("operationName").asText(""));
    otlp.put("traceId", span.path("traceID").asText(""));
    otlp.put("spanId", span.path("spanID").asText(""));
    JsonNode start = span.get("startTime");
    JsonNode duration = span.get("duration");
    if (start != null && start.isIntegralNumber()) {
      BigInteger startMicros = start.bigIntegerValue();
      otlp.put("startTimeUnixNano", startMicros.multiply(THOUSAND).toString());
      if (duration != null && duration.isIntegralNumber()) {
        BigInteger end = startMicros.add(duration.bigIntegerValue());
        otlp.put("endTimeUnixNano", end.multiply(THOUSAND).toString());
      }
    } else if (start != null) {
      // not a number: passed on as is, so that the span is rejected for its bad time
      otlp.set("startTimeUnixNano", start);
    }
    var attributes = otlp.putArray("attributes");
    for (JsonNode tag : span.path("tags")) {
      String key = tag.path("key").asText(null);
      JsonNode value = tag.get("value");
      if (key == null || value == null) {
        continue;
      }
      ObjectNode typed = NODES.objectNode();
      switch (tag.path("type").asText("string")) {
        case "float64":
          typed.set("doubleValue", value);
          break;
        case "int64":
          typed.set("intValue", value);
          break;
        case "bool":
          typed.set("boolValue", value);
          break;
        default:
          typed.set("stringValue", value);
          break;
      }
      attributes.addObject().put("key", key).set("value", typed);
    }
    return otlp;
  }
}
