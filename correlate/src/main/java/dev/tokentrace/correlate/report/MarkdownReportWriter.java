package dev.tokentrace.correlate.report;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.LatencyComponent;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Report v1 as Markdown that also reads well in a terminal (aligned pipe tables, short lines):
 * environment, core metrics with their definitions, the attribution table, the bottleneck
 * conclusion and data-quality notes (DESIGN.md "Reports", the seed's report outline).
 */
public final class MarkdownReportWriter implements ReportWriter {
  private static final Map<String, String> METRIC_LABELS =
      Map.of("ftl", "FTL", "mlt", "MLT", "tpot", "TPOT (server)", "e2e", "E2E");
  private static final List<String> METRIC_ORDER = List.of("ftl", "mlt", "tpot", "e2e");
  private static final List<String> GROUPINGS = List.of("concurrency", "run", "engine", "instance");

  @Override
  public ReportFormat format() {
    return ReportFormat.MARKDOWN;
  }

  @Override
  public void write(ReportData data, Appendable out) throws IOException {
    out.append("# tokentrace report\n\n");
    out.append(Prose.paragraph(preamble(data)));
    out.append(MarkdownEnvironment.section(data));
    out.append(coreMetrics(data));
    out.append(attribution(data));
    out.append("## Bottleneck\n\n");
    out.append(Prose.paragraph(String.join(" ", BottleneckConclusion.sentences(data))));
    out.append(MarkdownDataQuality.section(data));
  }

  private static String preamble(ReportData data) {
    AttributionSettings settings = data.settings();
    return String.format(
        Locale.ROOT,
        "Database `%s`, generated %s. Suspect pairs: network below -max(%s ms, %s%% of the client"
            + " time). Warm-up: the client's flag%s.",
        MarkdownTable.escape(data.database()),
        data.generatedAt(),
        plain(settings.negativeToleranceMs()),
        plain(settings.negativeTolerancePct()),
        settings.warmupFirstN() == 0
            ? ""
            : " and the first "
                + settings.warmupFirstN()
                + " requests of each run and concurrency");
  }

  private static String coreMetrics(ReportData data) {
    StringBuilder out = new StringBuilder("## Core metrics\n\n");
    out.append(
        Prose.paragraph(
            "FTL: request sent to first token, as the client saw it. MLT: (E2E - FTL) / (output tokens"
                + " - 1), the time per token after the first (never E2E / tokens, which folds FTL in)."
                + " TPOT: the server's decode time / (output tokens - 1). E2E: the client's end-to-end"
                + " time. Over client requests with status ok, warm-up excluded; TPOT over attributed"
                + " requests only."));
    MarkdownTable table =
        new MarkdownTable(
            "metric", ">requests", ">P50 ms", ">P90 ms", ">P95 ms", ">P99 ms", ">mean ms");
    for (String name : METRIC_ORDER) {
      data.metrics("all").stream()
          .filter(metric -> metric.metric().equals(name))
          .forEach(
              metric ->
                  table.row(
                      METRIC_LABELS.get(name),
                      Long.toString(metric.requests()),
                      Numbers.ms(metric.p50Ms()),
                      Numbers.ms(metric.p90Ms()),
                      Numbers.ms(metric.p95Ms()),
                      Numbers.ms(metric.p99Ms()),
                      Numbers.ms(metric.meanMs())));
    }
    out.append(
        table.isEmpty()
            ? "No client request with status ok is loaded.\n\n"
            : table.render() + "\n");
    out.append(concurrencyTable(data));
    return out.toString();
  }

  private static String concurrencyTable(ReportData data) {
    if (data.concurrency().size() < 2) {
      return "";
    }
    MarkdownTable table =
        new MarkdownTable(
            ">concurrency",
            ">requests",
            ">FTL P50",
            ">FTL P95",
            ">MLT P50",
            ">MLT P95",
            ">FTL P50 change");
    for (ReportData.ConcurrencyLevel level : data.concurrency()) {
      boolean baseline = level.concurrency() == level.baselineConcurrency();
      table.row(
          Integer.toString(level.concurrency()),
          Long.toString(level.requests()),
          Numbers.ms(level.ftlP50Ms()),
          Numbers.ms(level.ftlP95Ms()),
          Numbers.ms(level.mltP50Ms()),
          Numbers.ms(level.mltP95Ms()),
          baseline ? "baseline" : Numbers.change(level.ftlP50GrowthPct()));
    }
    return "### By concurrency (ms)\n\n" + table.render() + "\n";
  }

  private static String attribution(ReportData data) {
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
                    + " queueing (server) + prefill + decode; share = a component's sum / the sum of"
                    + " client E2E.",
                Prose.count(data.quality().includedRows(), "request"))));
    MarkdownTable table =
        new MarkdownTable(
            "component", ">P50 ms", ">P90 ms", ">P95 ms", ">P99 ms", ">share", ">dominant in");
    for (ReportData.Component row : overall) {
      table.row(
          BottleneckConclusion.label(row),
          Numbers.ms(row.p50Ms()),
          Numbers.ms(row.p90Ms()),
          Numbers.ms(row.p95Ms()),
          Numbers.ms(row.p99Ms()),
          Numbers.share(row.share()),
          Long.toString(row.dominantRequests()));
    }
    out.append(table.render()).append('\n');
    for (String grouping : GROUPINGS) {
      out.append(groupTable(data, grouping));
    }
    return out.toString();
  }

  /** Shares per group, when the grouping has more than one group. */
  private static String groupTable(ReportData data, String grouping) {
    List<ReportData.Component> rows = data.components(grouping);
    List<String> groups =
        rows.stream().map(row -> String.valueOf(row.groupValue())).distinct().toList();
    if (groups.size() < 2) {
      return "";
    }
    MarkdownTable table =
        new MarkdownTable(
            grouping,
            ">requests",
            ">network",
            ">queueing (client)",
            ">queueing (server)",
            ">prefill",
            ">decode");
    for (String group : groups) {
      List<ReportData.Component> of =
          rows.stream().filter(row -> String.valueOf(row.groupValue()).equals(group)).toList();
      table.row(
          group,
          Long.toString(of.get(0).requests()),
          share(of, LatencyComponent.NETWORK),
          share(of, LatencyComponent.CLIENT_QUEUE),
          share(of, LatencyComponent.QUEUE),
          share(of, LatencyComponent.PREFILL),
          share(of, LatencyComponent.DECODE));
    }
    return "### Shares by " + grouping + "\n\n" + table.render() + "\n";
  }

  private static String share(List<ReportData.Component> rows, LatencyComponent component) {
    return rows.stream()
        .filter(row -> row.component().equals(component.id()))
        .findFirst()
        .map(row -> Numbers.share(row.share()))
        .orElse("n/a");
  }

  private static String plain(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }
}
