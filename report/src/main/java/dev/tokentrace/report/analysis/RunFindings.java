package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Picks one {@link RunFinding} per client run from {@link ReportData}: the evidence rows of that
 * run only, so that nothing measured in one run (one workload) is compared with another.
 */
final class RunFindings {
  private static final int CONTENDED = 8;

  /** A prefill share of the end-to-end time from which FTL's growth with the prompt matters. */
  static final double PREFILL_NOTABLE = 0.2;

  private RunFindings() {}

  static List<RunFinding> of(ReportData data) {
    List<RunFinding> findings = new ArrayList<>();
    for (String runId : runIds(data)) {
      findings.add(finding(data, runId));
    }
    return findings;
  }

  /** The client runs, in load order; without evidence, the runs the attribution rows name. */
  static List<String> runIds(ReportData data) {
    Set<String> ids = new LinkedHashSet<>();
    // a gateway log whose every row split a client run's network has no row of its own in the
    // attribution (docs/formats/gateways.md#three-vantage-points): not a run of its own here
    data.evidence().clientRuns().stream()
        .filter(run -> run.requests() > 0)
        .forEach(run -> ids.add(run.runId()));
    if (ids.isEmpty()) {
      data.components("run").forEach(row -> ids.add(Objects.toString(row.groupValue(), "")));
    }
    return List.copyOf(ids);
  }

  private static RunFinding finding(ReportData data, String runId) {
    ReportEvidence evidence = data.evidence();
    ReportEvidence.RunOverview run =
        evidence.runs().stream().filter(r -> r.runId().equals(runId)).findFirst().orElse(null);
    List<ReportData.Component> ranked = ranked(data, runId);
    Set<String> instances = instances(run);
    return new RunFinding(
        runId,
        run == null ? total(ranked) : run.requests(),
        run == null ? total(ranked) : run.okRequests(),
        ranked.isEmpty() ? 0 : ranked.get(0).requests(),
        ranked.isEmpty() ? null : ranked.get(0),
        ranked.size() < 2 ? null : ranked.get(1),
        sweep(levels(data, runId)),
        evidence.mltVsContext().stream()
            .filter(row -> row.runId().equals(runId) && row.decodeBandwidthBound())
            .max(Comparator.comparing(row -> value(row.mltRisePct())))
            .orElse(null),
        prefillMatters(ranked)
            ? evidence.prefillVsPrompt().stream()
                .filter(row -> row.runId().equals(runId) && row.prefillBound())
                .max(Comparator.comparingLong(ReportEvidence.PromptBucket::seriesRequests))
                .orElse(null)
            : null,
        batchBelow(evidence, runId),
        warmup(evidence, runId),
        notices(evidence, instances, "preemption"),
        notices(evidence, instances, "error") + notices(evidence, instances, "oom"),
        evidence.networkOutliers().stream()
            .filter(row -> row.runId().equals(runId) && row.kind().equals("slow"))
            .count());
  }

  /**
   * Whether FTL's growth with the prompt is worth a finding: at concurrency 1 FTL is prefill by
   * definition, so in a run whose time goes elsewhere it is no news; without attribution the
   * black-box signal is all there is.
   */
  private static boolean prefillMatters(List<ReportData.Component> ranked) {
    return ranked.isEmpty()
        || ranked.get(0).component().equals(ComponentKind.PREFILL.id())
        || ranked.stream()
            .anyMatch(
                row ->
                    row.component().equals(ComponentKind.PREFILL.id())
                        && row.share() != null
                        && row.share() >= PREFILL_NOTABLE);
  }

  /** The run's five components, largest share first. */
  private static List<ReportData.Component> ranked(ReportData data, String runId) {
    return data.components("run").stream()
        .filter(row -> runId.equals(row.groupValue()))
        .filter(row -> !row.component().equals("total") && row.share() != null)
        .sorted(Comparator.comparing(ReportData.Component::share).reversed())
        .toList();
  }

  /** The run's concurrency levels; a report of one unnamed series (no run ids) owns them all. */
  static List<ReportData.ConcurrencyLevel> levels(ReportData data, String runId) {
    return data.levels(runId);
  }

  /** The lowest level against 8 (else the highest), when the series has two levels or more. */
  static RunFinding.@Nullable Sweep sweep(List<ReportData.ConcurrencyLevel> levels) {
    if (levels.size() < 2) {
      return null;
    }
    ReportData.ConcurrencyLevel contended =
        levels.stream()
            .filter(level -> level.concurrency() == CONTENDED)
            .findFirst()
            .orElse(levels.get(levels.size() - 1));
    return new RunFinding.Sweep(levels.get(0), contended);
  }

  private static List<ReportEvidence.BatchWindow> batchBelow(
      ReportEvidence evidence, String runId) {
    return evidence.batchVsConcurrency().stream()
        .filter(row -> row.runId().equals(runId))
        .filter(row -> Boolean.TRUE.equals(row.batchBelowConcurrency()))
        .sorted(Comparator.comparingDouble(RunFindings::batchGap).reversed())
        .toList();
  }

  private static double batchGap(ReportEvidence.BatchWindow row) {
    return value(row.clientInFlightMean()) - value(row.serverBatchMean());
  }

  private static ReportEvidence.@Nullable WarmupPhase warmup(
      ReportEvidence evidence, String runId) {
    return evidence.warmup().stream()
        .filter(row -> row.runId().equals(runId) && !row.phase().equals("steady"))
        .filter(row -> Boolean.TRUE.equals(row.slowerThanSteady()))
        .findFirst()
        .orElse(null);
  }

  private static long notices(ReportEvidence evidence, Set<String> instances, String kind) {
    return evidence.notices().stream()
        .filter(row -> instances.contains(row.instance()) && row.kind().equals(kind))
        .mapToLong(ReportEvidence.NoticeCount::notices)
        .sum();
  }

  private static Set<String> instances(ReportEvidence.@Nullable RunOverview run) {
    Set<String> instances = new LinkedHashSet<>();
    if (run != null && run.instances() != null) {
      for (String instance : run.instances().split(",")) {
        instances.add(instance);
      }
    }
    return instances;
  }

  private static long total(List<ReportData.Component> ranked) {
    return ranked.isEmpty() ? 0 : ranked.get(0).requests();
  }

  private static double value(@Nullable Double value) {
    return value == null ? 0 : value;
  }
}
