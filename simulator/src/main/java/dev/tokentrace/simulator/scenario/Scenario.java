package dev.tokentrace.simulator.scenario;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A named preset: parameter values laid over the defaults; explicit options override them.
 *
 * @param values parameter name to value, in a fixed order
 */
public record Scenario(String name, String description, Map<String, String> values) {
  public Scenario {
    requireNonNull(name, "name is null");
    requireNonNull(description, "description is null");
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The values as an option string, e.g. {@code --concurrency 4 --max-batch 8}. */
  public String options() {
    StringBuilder text = new StringBuilder();
    values.forEach(
        (name, value) ->
            text.append(text.length() == 0 ? "" : " ").append(name).append(' ').append(value));
    return text.toString();
  }
}
