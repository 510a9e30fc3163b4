package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.PdSection;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportRenderer;
import dev.tokentrace.report.model.Rules;
import dev.tokentrace.report.model.RunSummary;
import dev.tokentrace.report.model.Suggestion;
import dev.tokentrace.report.model.Text;
import dev.tokentrace.store.query.MarkdownTable;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The report as Markdown that also reads well in a terminal (aligned pipe tables, lines of at most
 * 100 columns where the data allows), in the seed's outline: environment, core metrics with their
 * definitions, baseline comparison, the attribution table, the bottleneck conclusion, data-quality
 * notes, findings per run, the slowest requests, suggestions and the reproducibility appendix
 * (docs/design.md#reports). Stateless and thread-safe.
 */
public final class MarkdownReportWriter implements ReportRenderer {
  private static final List<String> GROUPINGS = List.of("run", "engine", "instance");

  @Override
  public void write(Report report, Appendable out) throws IOException {
    ReportData data = report.data();
    out.append("# tokentrace report\n\n");
    out.append(Prose.paragraph(preamble(data)));
    out.append(MarkdownEnvironment.section(report));
    out.append(MarkdownCoreMetrics.section(report));
    out.append(MarkdownMatrix.section(data.evidence()));
    out.append(MarkdownBaseline.section(report));
    out.append(attribution(data, report.runs().size()));
    out.append("## Bottleneck\n\n");
    out.append(Prose.paragraph(MarkdownText.of(Text.join(" ", report.bottleneck()))));
    out.append(bullets("## Data quality\n\n", report.qualityNotes())).append('\n');
    out.append(findings(report.runs()));
    out.append(MarkdownSlowest.section(data));
    out.append(MarkdownGpu.section(report));
    out.append(suggestions(report.suggestions()));
    out.append(bullets("## Reproducibility\n\n", report.reproducibility()));
  }

  private static String bullets(String heading, List<Text> items) {
    StringBuilder out = new StringBuilder(heading);
    for (Text item : items) {
      out.append(Prose.bullet(MarkdownText.of(item)));
    }
    return out.toString();
  }

  private static String preamble(ReportData data) {
    Rules settings = data.settings();
    return String.format(
        Locale.ROOT,
        "Database `%s`, generated %s. Suspect pairs: network below -max(%s ms, %s%% of the client"
            + " time). Warm-up: the client's flag%s.",
        MarkdownTable.escape(data.database()),
        data.generatedAt(),
        Numbers.plain(settings.negativeToleranceMs()),
        Numbers.plain(settings.negativeTolerancePct()),
        settings.warmupFirstN() == 0
            ? ""
            : " and the first "
                + settings.warmupFirstN()
                + " requests of each run and concurrency");
  }

  private static String attribution(ReportData data, int runs) {
    StringBuilder out = new StringBuilder("## Latency attribution\n\n");
    List<ReportData.Component> overall = data.components("all");
    if (overall.isEmpty()) {
      return out.append(
              "No request could be attributed; see the bottleneck and data-quality notes.\n\n")
          .toString();
    }
    out.append(
        Prose.paragraph(
            String.format(
                Locale.ROOT,
                "%s attributed (matched to a server record with durations, status ok, warm-up"
                    + " and suspect pairs excluded). client E2E = network + queueing (client) +"
                    + " queueing (server) + prefill + %sdecode; share = a component's sum / the sum of"
                    + " client E2E.",
                Numbers.count(data.quality().includedRows(), "request"),
                data.pd().present() ? "kv transfer + queueing (decode) + " : "")));
    MarkdownTable table =
        new MarkdownTable(
            "component", ">P50 ms", ">P90 ms", ">P95 ms", ">P99 ms", ">share", ">dominant in");
    for (ReportData.Component row : overall) {
      if (row.component().equals("decode")) {
        // P/D: kv transfer and decode-side queueing sit between prefill and decode
        // (docs/formats/pd.md#attribution)
        for (PdSection.Part part : data.pd().parts()) {
          table.row(
              part.label(),
              Numbers.ms(part.p50Ms()),
              Numbers.ms(part.p90Ms()),
              Numbers.ms(part.p95Ms()),
              Numbers.ms(part.p99Ms()),
              Numbers.share(part.share()),
              Long.toString(part.dominantRequests()));
        }
      }
      table.row(
          row.label(),
          Numbers.ms(row.p50Ms()),
          Numbers.ms(row.p90Ms()),
          Numbers.ms(row.p95Ms()),
          Numbers.ms(row.p99Ms()),
          Numbers.share(row.share()),
          Long.toString(row.dominantRequests()));
    }
    out.append(table.render()).append('\n');
    out.append(MarkdownPd.section(data.pd()));
    out.append(MarkdownVantage.section(data.evidence()));
    // levels are compared within a run only: with several runs, per run and level
    out.append(
        runs > 1
            ? MarkdownShares.table(
                data, "run_concurrency", "run @ concurrency", "### Shares by run and concurrency")
            : MarkdownShares.table(
                data, "concurrency", "concurrency", "### Shares by concurrency"));
    for (String grouping : GROUPINGS) {
      if (!grouping.equals("instance") || !sameGroups(data, "run", "instance")) {
        out.append(MarkdownShares.table(data, grouping, grouping, "### Shares by " + grouping));
      }
    }
    return out.toString();
  }

  /** Whether two groupings name the same groups (each run on its own instance of its name). */
  private static boolean sameGroups(ReportData data, String one, String other) {
    return Objects.equals(groups(data, one), groups(data, other));
  }

  private static List<String> groups(ReportData data, String grouping) {
    return data.components(grouping).stream()
        .map(row -> String.valueOf(row.groupValue()))
        .distinct()
        .sorted()
        .toList();
  }

  private static String findings(List<RunSummary> findings) {
    if (findings.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("## Findings by run\n\n");
    out.append(
        Prose.paragraph(
            "Each run is one workload; its levels, prompts and batches are compared within the run"
                + " only."));
    for (RunSummary run : findings) {
      out.append(
          Prose.bullet(
              MarkdownText.of(
                  Text.of(Inline.code(run.runId()), ": ", Text.join(" ", run.sentences())))));
    }
    return out.append('\n').toString();
  }

  private static String suggestions(List<Suggestion> suggestions) {
    StringBuilder out = new StringBuilder("## Suggestions\n\n");
    if (suggestions.isEmpty()) {
      return out.append(
              Prose.paragraph(
                  "Nothing in the data calls for a change: no queueing under load, no component"
                      + " out of line, no server notice."))
          .toString();
    }
    for (Suggestion suggestion : suggestions) {
      out.append(Prose.bullet(MarkdownText.of(suggestion.text())));
    }
    return out.append('\n').toString();
  }

  /** The share of one component in a group's rows, for the share tables. */
  static String share(List<ReportData.Component> rows, ComponentKind component) {
    return rows.stream()
        .filter(row -> row.component().equals(component.id()))
        .findFirst()
        .map(row -> Numbers.share(row.share()))
        .orElse("n/a");
  }
}
