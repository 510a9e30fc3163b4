package dev.tokentrace.simulator.scenario;

import static java.util.Objects.requireNonNull;

/**
 * One simulator parameter.
 *
 * @param name the option name, {@code --kebab-case}
 * @param label the value's placeholder in help text
 * @param defaultValue the default as option text ({@code auto}: chosen from engine and version)
 * @param description one or two sentences for {@code --help}
 */
public record Parameter(String name, String label, String defaultValue, String description) {
  public Parameter {
    requireNonNull(name, "name is null");
    requireNonNull(label, "label is null");
    requireNonNull(defaultValue, "defaultValue is null");
    requireNonNull(description, "description is null");
    if (!name.startsWith("--")) {
      throw new IllegalArgumentException("name must start with --: " + name);
    }
  }
}
