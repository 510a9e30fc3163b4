package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The rows of queries/concurrency_sensitivity grouped into series (one run, or one instance), and
 * the conclusion's sentence when a report holds several runs: the seed's FTL rule is applied within
 * each run that measured more than one level, never across runs.
 */
final class ConcurrencySeries {
  private ConcurrencySeries() {}

  /** The levels per series, in row order (the SQL sorts by series, then level). */
  static Map<String, List<ReportData.ConcurrencyLevel>> of(List<ReportData.ConcurrencyLevel> rows) {
    Map<String, List<ReportData.ConcurrencyLevel>> series = new LinkedHashMap<>();
    for (ReportData.ConcurrencyLevel row : rows) {
      series.computeIfAbsent(row.groupValue(), key -> new ArrayList<>()).add(row);
    }
    return series;
  }

  /** The series with two levels or more. */
  static Map<String, List<ReportData.ConcurrencyLevel>> sweeps(
      Map<String, List<ReportData.ConcurrencyLevel>> series) {
    Map<String, List<ReportData.ConcurrencyLevel>> sweeps = new LinkedHashMap<>();
    series.forEach(
        (name, levels) -> {
          if (levels.size() > 1) {
            sweeps.put(name, levels);
          }
        });
    return sweeps;
  }

  /**
   * No run varies its level: a sweep loaded one level per run still shows per instance (the server
   * the requests reached); otherwise the rule cannot be applied.
   */
  static String noSweep(ReportData data, Map<String, List<ReportData.ConcurrencyLevel>> series) {
    Map<String, List<ReportData.ConcurrencyLevel>> byInstance =
        sweeps(of(data.evidence().concurrencyByInstance()));
    if (byInstance.size() == 1) {
      Map.Entry<String, List<ReportData.ConcurrencyLevel>> sweep =
          byInstance.entrySet().iterator().next();
      String sentence = oneSeries(sweep.getValue(), null);
      return "No run varies its concurrency level, but across the runs that reached instance "
          + sweep.getKey()
          + ", "
          + uncapitalized(sentence);
    }
    if (byInstance.size() > 1) {
      return "No run varies its concurrency level; across the runs that reached each instance, "
          + growths(byInstance, "instances");
    }
    String levels =
        series.values().stream()
            .map(rows -> Integer.toString(rows.get(0).concurrency()))
            .distinct()
            .collect(Collectors.joining(", "));
    return "Each run measured one concurrency level ("
        + levels
        + "), so the +50% TTFT rule (concurrency 1 against 8) cannot tell queueing from compute;"
        + " add runs at both levels.";
  }

  /** Several runs vary their level: how many cross the threshold, with each run's growth. */
  static String manySweeps(Map<String, List<ReportData.ConcurrencyLevel>> sweeps) {
    return growths(sweeps, "runs");
  }

  private static String growths(Map<String, List<ReportData.ConcurrencyLevel>> sweeps, String of) {
    List<String> parts = new ArrayList<>();
    int queueing = 0;
    for (Map.Entry<String, List<ReportData.ConcurrencyLevel>> entry : sweeps.entrySet()) {
      RunFinding.Sweep sweep = RunFindings.sweep(entry.getValue());
      queueing += sweep.queueing() ? 1 : 0;
      parts.add(
          String.format(
              Locale.ROOT,
              "%s %s at %d",
              entry.getKey(),
              Numbers.change(sweep.contended().ftlP50GrowthPct()),
              sweep.contended().concurrency()));
    }
    String listed = String.join("; ", parts);
    if (queueing == 0) {
      return String.format(
          Locale.ROOT,
          "TTFT P50 stays within the 50%% threshold from the lowest level to 8 in all %d %s that vary"
              + " the concurrency level (%s): compute, not queueing, sets the latency.",
          sweeps.size(),
          of,
          listed);
    }
    String how =
        queueing < sweeps.size()
            ? String.format(Locale.ROOT, "in %d of the %d %s", queueing, sweeps.size(), of)
            : sweeps.size() == 2 ? "in both " + of : "in all " + sweeps.size() + " " + of;
    return String.format(
        Locale.ROOT,
        "TTFT P50 grows by more than 50%% from the lowest level to 8 %s that vary the concurrency"
            + " level (%s): there, queueing, not compute, drives the first-token latency under"
            + " load; tune scheduling and the maximum batch size before buying faster GPUs.",
        how,
        listed);
  }

  /** The rule over one series of levels (one run), as the report of a single run says it. */
  static String oneSeries(
      List<ReportData.ConcurrencyLevel> levels, ReportData.@Nullable Component top) {
    if (levels.isEmpty()) {
      return "No concurrency level is recorded, so the +50% TTFT rule (concurrency 1 against 8)"
          + " cannot tell queueing from compute; give the level when loading client files.";
    }
    if (levels.size() == 1) {
      return String.format(
          Locale.ROOT,
          "Only concurrency %d was measured, so the +50%% TTFT rule (concurrency 1 against 8) cannot"
              + " tell queueing from compute; add runs at both levels.",
          levels.get(0).concurrency());
    }
    RunFinding.Sweep sweep = RunFindings.sweep(levels);
    ReportData.ConcurrencyLevel baseline = sweep.baseline();
    ReportData.ConcurrencyLevel contended = sweep.contended();
    return String.format(
        Locale.ROOT,
        "TTFT P50 goes from %s ms at concurrency %d to %s ms at concurrency %d (%s), %s",
        Numbers.ms(baseline.ftlP50Ms()),
        baseline.concurrency(),
        Numbers.ms(contended.ftlP50Ms()),
        contended.concurrency(),
        Numbers.change(contended.ftlP50GrowthPct()),
        sweep.queueing()
            ? queueingVerdict(top)
            : "within the 50% threshold: compute, not queueing, sets the latency.");
  }

  static String queueingVerdict(ReportData.@Nullable Component top) {
    if (top == null || top.component().equals(ComponentKind.QUEUE.id())) {
      return "over the 50% threshold: queueing, not compute, is the main problem; tune scheduling"
          + " and the maximum batch size before buying faster GPUs.";
    }
    return "over the 50% threshold: under load, queueing, not compute, drives the first-token"
        + " latency ("
        + BottleneckConclusion.label(top)
        + " still takes the largest share of the end-to-end time); tune scheduling and the maximum"
        + " batch size for TTFT.";
  }

  /** The component with the largest share in one run, if it has attributed requests. */
  static ReportData.@Nullable Component runTop(ReportData data, String runId) {
    return data.components("run").stream()
        .filter(row -> runId.equals(row.groupValue()))
        .filter(row -> !row.component().equals("total") && row.share() != null)
        .max(Comparator.comparing(ReportData.Component::share))
        .orElse(null);
  }

  /**
   * A sentence continued after a comma: "TTFT P50 goes" stays, "Only concurrency" becomes "only".
   */
  static String uncapitalized(String text) {
    if (text.length() > 1 && Character.isUpperCase(text.charAt(1))) {
      return text;
    }
    return text.isEmpty() ? text : Character.toLowerCase(text.charAt(0)) + text.substring(1);
  }
}
