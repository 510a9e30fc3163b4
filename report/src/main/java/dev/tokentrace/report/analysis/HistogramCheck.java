package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * "The server's own histograms agree / disagree": per instance, the means of its /metrics
 * histograms (report/histogram_check) against the per-request attribution's, with the figures; each
 * component that disagrees with its signed difference in ms and percent
 * (docs/formats/metrics.md#the-reports-cross-check).
 */
final class HistogramCheck {
  private HistogramCheck() {}

  static List<Text> sentences(List<GpuEvidence.HistogramCheck> rows) {
    Map<String, List<GpuEvidence.HistogramCheck>> byInstance = new LinkedHashMap<>();
    for (GpuEvidence.HistogramCheck row : rows) {
      byInstance.computeIfAbsent(row.instance(), k -> new ArrayList<>()).add(row);
    }
    List<Text> sentences = new ArrayList<>();
    byInstance.forEach((instance, checks) -> sentences.add(sentence(instance, checks)));
    return sentences;
  }

  private static Text sentence(String instance, List<GpuEvidence.HistogramCheck> checks) {
    List<String> agree = new ArrayList<>();
    List<String> disagree = new ArrayList<>();
    List<String> alone = new ArrayList<>();
    for (GpuEvidence.HistogramCheck check : checks) {
      String figures =
          String.format(
              java.util.Locale.ROOT,
              "%s mean %s ms (server, %d requests) vs %s ms (attributed, %d)",
              check.component(),
              Numbers.ms(check.serverMeanMs()),
              check.serverRequests(),
              Numbers.ms(check.attributedMeanMs()),
              check.attributedRequests());
      if (check.agrees() == null) {
        alone.add(check.component() + " mean " + Numbers.ms(check.serverMeanMs()) + " ms");
      } else if (check.agrees()) {
        agree.add(figures);
      } else {
        disagree.add(figures + ", off by " + difference(check));
      }
    }
    String verdict =
        disagree.isEmpty() && !agree.isEmpty()
            ? "the server's own histograms agree with the per-request attribution"
            : disagree.isEmpty()
                ? "the server's own histograms have no attributed requests to compare with"
                : "the server's own histograms disagree with the per-request attribution";
    StringBuilder detail = new StringBuilder();
    if (!disagree.isEmpty()) {
      detail.append(" Disagree: ").append(String.join("; ", disagree)).append('.');
    }
    if (!agree.isEmpty()) {
      detail.append(" Agree: ").append(String.join("; ", agree)).append('.');
    }
    if (!alone.isEmpty()) {
      detail.append(" Server only: ").append(String.join("; ", alone)).append('.');
    }
    if (!disagree.isEmpty()) {
      detail.append(
          " A disagreement means the two sources do not see the same requests (other clients,"
              + " health checks, a window outside the benchmark) or one of them is misread.");
    }
    return Text.format("%s: %s.%s", Inline.code(instance), verdict, detail.toString());
  }

  /**
   * How far the server's mean is from the attribution's: {@code +60.2 ms (+100.3%)}, and a count
   * mismatch when the two saw different numbers of requests.
   */
  private static String difference(GpuEvidence.HistogramCheck check) {
    Double server = check.serverMeanMs();
    Double attributed = check.attributedMeanMs();
    Double diff =
        check.differenceMs() != null
            ? check.differenceMs()
            : server == null || attributed == null ? null : server - attributed;
    String relative =
        diff == null || attributed == null || attributed == 0
            ? ""
            : " (" + Numbers.change(100 * diff / attributed) + ")";
    String sign = diff != null && diff >= 0 ? "+" : "";
    String counts =
        check.serverRequests() == check.attributedRequests()
            ? ""
            : String.format(
                java.util.Locale.ROOT,
                "; the server counted %+d requests",
                check.serverRequests() - check.attributedRequests());
    return sign + Numbers.ms(diff) + " ms" + relative + counts;
  }
}
