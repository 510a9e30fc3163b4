package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The report's core metrics (the seed's 核心指标): the definitions used, FTL, MLT, TPOT and E2E
 * percentiles over every request, then per run and concurrency level FTL, MLT and TPOT at
 * P50/P90/P95 with the run's throughput in requests and output tokens per second. Levels are never
 * pooled across runs.
 */
final class MarkdownCoreMetrics {
  private static final Map<String, String> METRIC_LABELS =
      Map.of("ftl", "TTFT", "mlt", "ITL", "tpot", "TPOT (server)", "e2e", "E2E");
  private static final List<String> METRIC_ORDER = List.of("ftl", "mlt", "tpot", "e2e");

  private MarkdownCoreMetrics() {}

  static String section(Report report) {
    ReportData data = report.data();
    StringBuilder out = new StringBuilder("## Core metrics\n\n");
    out.append(Prose.paragraph(MarkdownText.of(report.definitions())));
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
    out.append(byRun(data));
    return out.toString();
  }

  private static String byRun(ReportData data) {
    Map<String, List<ReportData.ConcurrencyLevel>> series = new LinkedHashMap<>();
    for (ReportData.ConcurrencyLevel level : data.concurrency()) {
      series.computeIfAbsent(level.groupValue(), key -> new ArrayList<>()).add(level);
    }
    if (series.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("### By run and concurrency level (ms)\n\n");
    for (Map.Entry<String, List<ReportData.ConcurrencyLevel>> run : series.entrySet()) {
      out.append(runLine(data, run.getKey(), run.getValue()));
      MarkdownTable table =
          new MarkdownTable(
              ">level",
              "metric",
              ">requests",
              ">P50",
              ">P90",
              ">P95",
              ">change",
              ">req/s",
              ">out tok/s");
      for (ReportData.ConcurrencyLevel level : run.getValue()) {
        rows(table, level, throughput(data, run.getKey(), level.concurrency()));
      }
      out.append(table.render()).append('\n');
    }
    return out.toString();
  }

  private static String runLine(
      ReportData data, String runId, List<ReportData.ConcurrencyLevel> levels) {
    ReportEvidence.Throughput total =
        data.evidence().throughput().stream()
            .filter(row -> row.groupBy().equals("run") && row.runId().equals(runId))
            .findFirst()
            .orElse(null);
    String name = runId.isEmpty() ? "All requests" : MarkdownText.code(runId);
    String rate =
        total == null
            ? ""
            : String.format(
                Locale.ROOT,
                ": %s req/s, %s output tokens/s over %s s",
                Numbers.rate(total.requestsPerS()),
                Numbers.rate(total.outputTokensPerS()),
                Numbers.rate(total.windowS()));
    return Prose.paragraph(name + " (" + Numbers.count(levels.size(), "level") + ")" + rate + ".");
  }

  private static void rows(
      MarkdownTable table,
      ReportData.ConcurrencyLevel level,
      ReportEvidence.@Nullable Throughput throughput) {
    boolean baseline = level.concurrency() == level.baselineConcurrency();
    table.row(
        Integer.toString(level.concurrency()),
        "TTFT",
        Long.toString(level.requests()),
        Numbers.ms(level.ftlP50Ms()),
        Numbers.ms(level.ftlP90Ms()),
        Numbers.ms(level.ftlP95Ms()),
        baseline ? "base" : Numbers.change(level.ftlP50GrowthPct()),
        throughput == null ? "n/a" : Numbers.rate(throughput.requestsPerS()),
        throughput == null ? "n/a" : Numbers.rate(throughput.outputTokensPerS()));
    table.row(
        "",
        "ITL",
        "",
        Numbers.ms(level.mltP50Ms()),
        Numbers.ms(level.mltP90Ms()),
        Numbers.ms(level.mltP95Ms()),
        baseline ? "" : Numbers.change(level.mltP50GrowthPct()),
        "",
        "");
    table.row(
        "",
        "TPOT",
        "",
        Numbers.ms(level.tpotP50Ms()),
        Numbers.ms(level.tpotP90Ms()),
        Numbers.ms(level.tpotP95Ms()),
        "",
        "",
        "");
  }

  private static ReportEvidence.@Nullable Throughput throughput(
      ReportData data, String runId, int concurrency) {
    return data.evidence().throughput().stream()
        .filter(row -> row.groupBy().equals("run_concurrency") && row.runId().equals(runId))
        .filter(row -> Objects.equals(row.concurrency(), concurrency))
        .findFirst()
        .orElse(null);
  }
}
