package dev.tokentrace.report.analysis;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the evidence says about one client run, picked by {@link RunFindings} from the rows of
 * {@link ReportData}: its largest components, the seed's FTL rule across its own concurrency
 * levels, whether the server batched what the client sent, whether MLT grows with context and FTL
 * with the prompt, warm-up, server notices and network outliers. Values only; {@link RunSentences}
 * phrases them.
 *
 * @param sweep the run's lowest level and the level the seed's rule compares it with (8, else the
 *     highest); null when the run measured one level
 * @param context a row of the run's MLT-over-context series flagged decode-bandwidth bound, if any
 * @param prompt a row of the run's FTL-over-prompt series flagged prefill bound, if any
 * @param batchBelow the run's levels at which the server batched fewer requests than the client had
 *     in flight, largest gap first
 * @param warmup the run's warm-up or first requests when much slower than its steady state
 */
record RunFinding(
    String runId,
    long requests,
    long okRequests,
    long attributed,
    ReportData.@Nullable Component top,
    ReportData.@Nullable Component second,
    @Nullable Sweep sweep,
    ReportEvidence.@Nullable ContextBucket context,
    ReportEvidence.@Nullable PromptBucket prompt,
    List<ReportEvidence.BatchWindow> batchBelow,
    ReportEvidence.@Nullable WarmupPhase warmup,
    long preemptions,
    long errors,
    long slowNetwork) {
  /** The run's lowest concurrency level against the level the seed's rule looks at. */
  record Sweep(ReportData.ConcurrencyLevel baseline, ReportData.ConcurrencyLevel contended) {
    Sweep {
      requireNonNull(baseline, "baseline is null");
      requireNonNull(contended, "contended is null");
    }

    boolean queueing() {
      return Boolean.TRUE.equals(contended.queueingBound());
    }
  }

  RunFinding {
    requireNonNull(runId, "runId is null");
    batchBelow = List.copyOf(batchBelow);
  }

  /** The short verdict: the largest component, or why there is none. */
  String verdict() {
    if (top != null) {
      return top.label();
    }
    return attributed == 0 ? "not attributed" : "n/a";
  }

  /** Short labels of the signals found, for badges and tables. */
  List<String> signals() {
    List<String> signals = new java.util.ArrayList<>();
    if (sweep != null && sweep.queueing()) {
      signals.add("queueing under load");
    }
    if (!batchBelow.isEmpty()) {
      signals.add("batch below client concurrency");
    }
    if (context != null) {
      signals.add("decode bandwidth bound");
    }
    if (prompt != null) {
      signals.add("TTFT grows with prompt");
    }
    if (warmup != null) {
      signals.add("warm-up");
    }
    if (preemptions > 0) {
      signals.add("preemptions");
    }
    if (errors > 0) {
      signals.add("server errors");
    }
    if (slowNetwork > 0) {
      signals.add("network outliers");
    }
    return signals;
  }
}
