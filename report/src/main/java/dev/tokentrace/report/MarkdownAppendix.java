package dev.tokentrace.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The reproducibility appendix (the seed's 可复现说明): the report command and rules, each client load
 * with its command and parameters, the attribution runs, and every loaded file with its size and
 * full SHA-256.
 */
final class MarkdownAppendix {
  private static final ObjectMapper JSON = new ObjectMapper();

  private MarkdownAppendix() {}

  static String section(ReportData data) {
    StringBuilder out = new StringBuilder("## Reproducibility\n\n");
    for (String item : items(data)) {
      out.append(Prose.bullet(item));
    }
    return out.toString();
  }

  /** The appendix's items; commands, parameters and paths are Markdown code spans. */
  static List<String> items(ReportData data) {
    List<String> out = new ArrayList<>();
    ReportEvidence evidence = data.evidence();
    AttributionSettings rules = data.settings();
    out.add(
        String.format(
            Locale.ROOT,
            "Report: %s on %s at %s; rules: negative tolerance %s ms or %s%%, warm-up first %d,"
                + " match %s.",
            evidence.command().isEmpty() ? "n/a" : MarkdownText.whole(evidence.command()),
            MarkdownText.code(data.database()),
            data.generatedAt(),
            plain(rules.negativeToleranceMs()),
            plain(rules.negativeTolerancePct()),
            rules.warmupFirstN(),
            rules.match().heuristic() ? "heuristic" : "id"));
    for (ReportEvidence.RunOverview run : evidence.clientRuns()) {
      out.add(
          String.format(
              Locale.ROOT,
              "Run %s (%s, %s): %s; parameters %s.",
              MarkdownText.code(run.runId()),
              run.kind(),
              run.startedTs(),
              MarkdownText.whole(run.command()),
              params(run.params())));
    }
    List<ReportEvidence.RunOverview> attributions =
        evidence.runs().stream().filter(run -> !run.kind().equals("clients")).toList();
    if (!attributions.isEmpty()) {
      ReportEvidence.RunOverview last = attributions.get(attributions.size() - 1);
      out.add(
          String.format(
              Locale.ROOT,
              "Attribution %s (%s, %d before it): parameters %s.",
              MarkdownText.code(last.runId()),
              last.startedTs(),
              attributions.size() - 1,
              params(last.params())));
    }
    for (ReportData.LoadedFile file : data.files()) {
      out.add(
          String.format(
              Locale.ROOT,
              "File %s (%s, run %s): %d bytes, sha256 %s.",
              MarkdownText.whole(file.path()),
              file.fileKind(),
              MarkdownText.code(file.runId()),
              file.bytes(),
              file.sha256()));
    }
    out.add(
        "Server logs: each event keeps its source path, line and byte offset (columns"
            + " source_path, source_line, source_offset of the event tables).");
    return out;
  }

  /**
   * A run's parameters (a JSON object in the runs table) as {@code key=value} code spans, nulls
   * left out, so the line wraps between parameters; other text as one span.
   */
  static String params(@Nullable String json) {
    if (json == null || json.isBlank()) {
      return "none";
    }
    try {
      JsonNode tree = JSON.readTree(json);
      if (!tree.isObject()) {
        return MarkdownText.whole(json);
      }
      List<String> pairs = new ArrayList<>();
      tree.fields()
          .forEachRemaining(
              field -> {
                if (!field.getValue().isNull()) {
                  JsonNode value = field.getValue();
                  pairs.add(
                      MarkdownText.whole(
                          field.getKey() + "=" + (value.isTextual() ? value.asText() : value)));
                }
              });
      return pairs.isEmpty() ? "none" : String.join(", ", pairs);
    } catch (JsonProcessingException e) {
      // not JSON (a file written by another tool): shown as it is
      return MarkdownText.whole(json);
    }
  }

  static String plain(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
