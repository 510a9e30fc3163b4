package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.ConfigComparison;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.RunLoad;
import dev.tokentrace.report.model.ServerSettings;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The environment's configuration and load parts: each instance's settings as its startup output
 * gave them, what is unknown and how to record it, settings that changed across restarts, and each
 * client run's prompt and output lengths and concurrency; and the baseline's configuration
 * differences.
 */
final class MarkdownConfig {
  private MarkdownConfig() {}

  static String configuration(Report report) {
    List<ServerSettings> instances = report.configuration();
    if (instances.isEmpty()) {
      return "";
    }
    StringBuilder out =
        new StringBuilder(
            Prose.paragraph(
                "Configuration, as each server printed it at startup (every setting, and when it"
                    + " changed: `tokentrace sql server_config`):"));
    for (ServerSettings instance : instances) {
      out.append(Prose.bullet(line(instance)));
    }
    return out.append('\n').toString();
  }

  static String line(ServerSettings instance) {
    StringBuilder text =
        new StringBuilder(MarkdownText.code(instance.instance()))
            .append(" (")
            .append(instance.engine())
            .append("): ");
    List<String> items = new ArrayList<>();
    for (ServerSettings.Item item : instance.items()) {
      items.add(item.setting() + " " + MarkdownText.code(item.value()));
    }
    text.append(items.isEmpty() ? "no setting printed" : String.join("; ", items)).append('.');
    if (!instance.changed().isEmpty()) {
      text.append(" Restarted with other settings: ")
          .append(String.join(", ", instance.changed().stream().map(MarkdownText::code).toList()))
          .append(" (`tokentrace sql server_config -p changes_only=true`).");
    }
    String unknown = unknown(instance);
    if (!unknown.isEmpty()) {
      text.append(" Unknown: ").append(unknown).append('.');
    }
    return text.toString();
  }

  /** Unknown settings grouped by how to record them: {@code a, b (how); c (how)}. */
  static String unknown(ServerSettings instance) {
    Map<String, List<String>> byHow = new LinkedHashMap<>();
    for (ServerSettings.Unknown unknown : instance.unknown()) {
      byHow
          .computeIfAbsent(MarkdownText.of(unknown.how()), how -> new ArrayList<>())
          .add(unknown.setting());
    }
    List<String> parts = new ArrayList<>();
    byHow.forEach((how, labels) -> parts.add(String.join(", ", labels) + " (" + how + ")"));
    return String.join("; ", parts);
  }

  static String load(Report report) {
    List<RunLoad> rows = report.load();
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder out =
        new StringBuilder("Load, as the clients recorded it (warm-up excluded):\n\n");
    for (RunLoad row : rows) {
      out.append(
          Prose.bullet(MarkdownText.code(row.runId()) + ": " + MarkdownText.of(row.text()) + "."));
    }
    return out.append('\n').toString();
  }

  /** The configuration differences, before any latency: a sentence and the side-by-side table. */
  static String baseline(Report report) {
    ConfigComparison comparison = report.baselineConfiguration();
    if (comparison == null) {
      return "";
    }
    StringBuilder out = new StringBuilder("### Configuration\n\n");
    out.append(Prose.paragraph(MarkdownText.of(comparison.sentence())));
    if (!comparison.differences().isEmpty()) {
      MarkdownTable table = new MarkdownTable("instance", "setting", "baseline", "current");
      for (ConfigComparison.Difference row : comparison.differences()) {
        table.row(
            row.instance(),
            row.label(),
            row.baseline() == null ? "unknown" : row.baseline(),
            row.current() == null ? "unknown" : row.current());
      }
      out.append(table.render()).append('\n');
    }
    return out.append("### Latency and throughput\n\n").toString();
  }
}
