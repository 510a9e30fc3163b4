package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One server instance's environment as its startup output stated it: each setting the report names
 * with its value, the engine's key and the line it came from; the settings its logs do not state,
 * with how to record them; and the keys that changed across restarts.
 *
 * @param changed keys that had more than one value ({@code tokentrace sql server_config -p
 *     changes_only=true} lists them)
 */
public record ServerSettings(
    String engine, String instance, List<Item> items, List<Unknown> unknown, List<String> changed) {
  public ServerSettings {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    items = List.copyOf(items);
    unknown = List.copyOf(unknown);
    changed = List.copyOf(changed);
  }

  /** A stated setting: its label, its value as the report shows it, the key and the line. */
  public record Item(String setting, String value, String key, String source) {}

  /** A setting the logs do not state, and how to get it recorded next time. */
  public record Unknown(String setting, Text how) {}
}
