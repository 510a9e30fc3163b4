package dev.tokentrace.parse.sglang;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.json.EventJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Renders an event as its JSON without the envelope that every row shares (engine, instance,
 * source): {@code batch_step ts=2025-02-27T04:46:39.000Z rank=TP0 phase=decode batch_size=12 ...},
 * in the codec's field order, strings with spaces in single quotes. Literal enough for line tables,
 * short enough to read.
 */
final class EventDescriptions {
  private EventDescriptions() {}

  static String of(EngineEvent event) {
    ObjectNode json;
    try {
      json = (ObjectNode) EventJson.mapper().readTree(EventJson.write(event));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StringBuilder text = new StringBuilder(json.get("type").asText());
    for (Map.Entry<String, JsonNode> field : json.properties()) {
      String name = field.getKey();
      if (name.equals("type")
          || name.equals("engine")
          || name.equals("instance")
          || name.equals("source")) {
        continue;
      }
      String value = field.getValue().asText();
      text.append(' ').append(name).append('=');
      text.append(value.contains(" ") ? "'" + value + "'" : value);
    }
    return text.toString();
  }
}
