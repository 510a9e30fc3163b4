package dev.tokentrace.cli;

import dev.tokentrace.correlate.attribution.LatencyComponent;
import dev.tokentrace.report.model.ReportData;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Each latency component's share of the summed client end-to-end time: from the truth (how a
 * scenario's true bottleneck is defined) or as the report states it.
 */
final class ComponentShares {
  /** The report's component order. */
  static final List<LatencyComponent> ORDER =
      List.of(
          LatencyComponent.CLIENT_QUEUE,
          LatencyComponent.NETWORK,
          LatencyComponent.QUEUE,
          LatencyComponent.PREFILL,
          LatencyComponent.DECODE);

  private ComponentShares() {}

  /** Shares over the completed, non-warm-up final attempts ({@link TruthRow#included()}). */
  static Map<LatencyComponent, Double> ofTruth(List<TruthRow> truth) {
    Map<LatencyComponent, Double> sums = new EnumMap<>(LatencyComponent.class);
    double e2e = 0;
    for (TruthRow row : truth) {
      if (row.included()) {
        for (LatencyComponent component : ORDER) {
          sums.merge(component, row.component(component), Double::sum);
        }
        e2e += row.e2eMs();
      }
    }
    double total = e2e;
    sums.replaceAll((component, sum) -> sum / total);
    return sums;
  }

  /** The shares of the report's overall attribution table (empty when nothing was attributed). */
  static Map<LatencyComponent, Double> ofReport(ReportData report) {
    Map<LatencyComponent, Double> shares = new EnumMap<>(LatencyComponent.class);
    for (ReportData.Component row : report.components("all")) {
      if (!row.component().equals("total") && row.share() != null) {
        shares.put(LatencyComponent.fromId(row.component()), row.share());
      }
    }
    return shares;
  }

  /** Largest share first. */
  static List<Map.Entry<LatencyComponent, Double>> ranked(Map<LatencyComponent, Double> shares) {
    return shares.entrySet().stream()
        .sorted(Map.Entry.<LatencyComponent, Double>comparingByValue(Comparator.reverseOrder()))
        .toList();
  }
}
