package dev.tokentrace.report.analysis;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Rules;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The reproducibility appendix (the seed's 可复现说明): the report command and rules, each client load
 * with its command and parameters, the attribution runs, and every loaded file with its size and
 * full SHA-256.
 */
final class Reproducibility {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Reproducibility() {}

  /** The appendix's items; commands, parameters and paths are code. */
  static List<Text> items(ReportData data) {
    List<Text> out = new ArrayList<>();
    ReportEvidence evidence = data.evidence();
    Rules rules = data.settings();
    out.add(
        Text.format(
            "Report: %s on %s at %s; rules: negative tolerance %s ms or %s%%, warm-up first %d,"
                + " match %s.",
            evidence.command().isEmpty() ? "n/a" : Inline.whole(evidence.command()),
            Inline.code(data.database()),
            data.generatedAt(),
            Numbers.plain(rules.negativeToleranceMs()),
            Numbers.plain(rules.negativeTolerancePct()),
            rules.warmupFirstN(),
            rules.heuristicMatch() ? "heuristic" : "id"));
    for (ReportEvidence.RunOverview run : evidence.clientRuns()) {
      out.add(
          Text.format(
              "Run %s (%s, %s): %s; parameters %s.",
              Inline.code(run.runId()),
              run.kind(),
              run.startedTs(),
              Inline.whole(run.command()),
              params(run.params())));
    }
    List<ReportEvidence.RunOverview> attributions =
        evidence.runs().stream().filter(run -> !run.kind().equals("clients")).toList();
    if (!attributions.isEmpty()) {
      ReportEvidence.RunOverview last = attributions.get(attributions.size() - 1);
      out.add(
          Text.format(
              "Attribution %s (%s, %d before it): parameters %s.",
              Inline.code(last.runId()),
              last.startedTs(),
              attributions.size() - 1,
              params(last.params())));
    }
    for (ReportData.LoadedFile file : data.files()) {
      out.add(
          Text.format(
              "File %s (%s, run %s): %d bytes, sha256 %s.",
              Inline.whole(file.path()),
              file.fileKind(),
              Inline.code(file.runId()),
              file.bytes(),
              file.sha256()));
    }
    out.add(
        Text.of(
            "Server logs: each event keeps its source path, line and byte offset (columns"
                + " source_path, source_line, source_offset of the event tables)."));
    return out;
  }

  /**
   * A run's parameters (a JSON object in the runs table) as {@code key=value} code spans, nulls
   * left out, so the line wraps between parameters; other text as one span.
   */
  static Text params(@Nullable String json) {
    if (json == null || json.isBlank()) {
      return Text.of("none");
    }
    try {
      JsonNode tree = JSON.readTree(json);
      if (!tree.isObject()) {
        return Text.of(Inline.whole(json));
      }
      List<Text> pairs = new ArrayList<>();
      tree.fields()
          .forEachRemaining(
              field -> {
                if (!field.getValue().isNull()) {
                  JsonNode value = field.getValue();
                  pairs.add(
                      Text.of(
                          Inline.whole(
                              field.getKey()
                                  + "="
                                  + (value.isTextual() ? value.asText() : value))));
                }
              });
      return pairs.isEmpty() ? Text.of("none") : Text.join(", ", pairs);
    } catch (JsonProcessingException e) {
      // not JSON (a file written by another tool): shown as it is
      return Text.of(Inline.whole(json));
    }
  }
}
