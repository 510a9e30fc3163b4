package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.BaselineRow;
import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The rows of the baseline comparison: the same metric read from both databases by the same SQL,
 * side by side (the seed's 对比基线). Latencies at P50/P90/P95, throughput of the runs both hold (or of
 * their only runs), component shares and the attributed count.
 */
final class BaselineComparison {
  private static final Map<String, String> METRICS =
      Map.of("ftl", "TTFT", "mlt", "ITL", "tpot", "TPOT (server)", "e2e", "E2E");
  private static final List<String> ORDER = List.of("ftl", "mlt", "tpot", "e2e");

  private BaselineComparison() {}

  static List<BaselineRow> rows(ReportData data, ReportData.Baseline baseline) {
    List<BaselineRow> rows = new ArrayList<>();
    for (String metric : ORDER) {
      Optional<ReportData.Metric> now = metric(data.metrics("all"), metric);
      Optional<ReportData.Metric> then = metric(all(baseline.coreMetrics()), metric);
      rows.add(latency(metric, "P50", now, then, ReportData.Metric::p50Ms));
      rows.add(latency(metric, "P90", now, then, ReportData.Metric::p90Ms));
      rows.add(latency(metric, "P95", now, then, ReportData.Metric::p95Ms));
    }
    throughput(data, baseline, rows);
    for (ComponentKind component : ComponentKind.values()) {
      rows.add(
          new BaselineRow(
              "share " + component.label(),
              "",
              "share",
              share(data.components("all"), component),
              share(baseline.components(), component)));
    }
    rows.add(
        new BaselineRow(
            "attributed requests",
            "",
            "count",
            (double) data.quality().includedRows(),
            (double) baseline.quality().includedRows()));
    return rows;
  }

  private static void throughput(
      ReportData data, ReportData.Baseline baseline, List<BaselineRow> rows) {
    List<ReportEvidence.Throughput> now = runs(data.evidence().throughput());
    List<ReportEvidence.Throughput> then = runs(baseline.throughput());
    List<ReportEvidence.Throughput[]> pairs = new ArrayList<>();
    for (ReportEvidence.Throughput current : now) {
      then.stream()
          .filter(old -> old.runId().equals(current.runId()))
          .findFirst()
          .ifPresent(old -> pairs.add(new ReportEvidence.Throughput[] {current, old}));
    }
    if (pairs.isEmpty() && now.size() == 1 && then.size() == 1) {
      pairs.add(new ReportEvidence.Throughput[] {now.get(0), then.get(0)});
    }
    for (ReportEvidence.Throughput[] pair : pairs) {
      String run = pair[0].runId().equals(pair[1].runId()) ? " " + pair[0].runId() : "";
      rows.add(
          new BaselineRow(
              "requests/s" + run, "", "/s", pair[0].requestsPerS(), pair[1].requestsPerS()));
      rows.add(
          new BaselineRow(
              "output tokens/s" + run,
              "",
              "/s",
              pair[0].outputTokensPerS(),
              pair[1].outputTokensPerS()));
    }
  }

  private static List<ReportEvidence.Throughput> runs(List<ReportEvidence.Throughput> rows) {
    return rows.stream().filter(row -> row.groupBy().equals("run")).toList();
  }

  private static List<ReportData.Metric> all(List<ReportData.Metric> metrics) {
    return metrics.stream().filter(row -> row.groupBy().equals("all")).toList();
  }

  private static Optional<ReportData.Metric> metric(List<ReportData.Metric> rows, String name) {
    return rows.stream().filter(row -> row.metric().equals(name)).findFirst();
  }

  private static BaselineRow latency(
      String metric,
      String stat,
      Optional<ReportData.Metric> now,
      Optional<ReportData.Metric> then,
      Function<ReportData.Metric, @Nullable Double> value) {
    return new BaselineRow(
        METRICS.get(metric), stat, "ms", now.map(value).orElse(null), then.map(value).orElse(null));
  }

  private static @Nullable Double share(List<ReportData.Component> rows, ComponentKind component) {
    return rows.stream()
        .filter(row -> row.groupBy().equals("all") && row.component().equals(component.id()))
        .map(ReportData.Component::share)
        .findFirst()
        .orElse(null);
  }
}
