package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sentences of one run's conclusion: where its time goes, the seed's FTL rule over its own
 * concurrency levels, and each further signal with its numbers. Every number comes from a query.
 */
final class RunSentences {
  private RunSentences() {}

  static List<Text> of(RunFinding run) {
    List<Text> sentences = new ArrayList<>();
    sentences.add(Text.of(attribution(run)));
    if (run.sweep() != null) {
      sentences.add(Text.of(sweep(run.sweep())));
    }
    if (!run.batchBelow().isEmpty()) {
      sentences.add(Text.of(batch(run.batchBelow().get(0))));
    }
    if (run.context() != null) {
      sentences.add(Text.of(context(run.context())));
    }
    if (run.prompt() != null) {
      sentences.add(Text.of(prompt(run.prompt())));
    }
    if (run.warmup() != null) {
      sentences.add(Text.of(warmup(run.warmup())));
    }
    if (run.preemptions() + run.errors() > 0) {
      sentences.add(
          Text.format(
              "The server logged %s and %s.",
              Numbers.count(run.preemptions(), "preemption"),
              Numbers.count(run.errors(), "error")));
    }
    if (run.slowNetwork() > 0) {
      sentences.add(
          Text.format(
              "%s lost unusual time outside the engine (%s).",
              capitalized(Numbers.count(run.slowNetwork(), "request")),
              Inline.whole("sql network_outliers")));
    }
    return sentences;
  }

  private static String attribution(RunFinding run) {
    if (run.top() == null) {
      return format(
          "None of its %s could be split into components (see the data-quality notes).",
          Numbers.count(run.okRequests(), "request"));
    }
    String second =
        run.second() == null
            ? ""
            : format(", %s %s", label(run.second()), Numbers.share(run.second().share()));
    return format(
        "%s takes %s of the end-to-end time%s (%d of %d requests attributed).",
        capitalized(label(run.top())),
        Numbers.share(run.top().share()),
        second,
        run.attributed(),
        run.okRequests());
  }

  static String sweep(RunFinding.Sweep sweep) {
    return format(
        "%s: %s.",
        sweepEvidence(sweep), sweep.queueing() ? "queueing, not compute" : "compute, not queueing");
  }

  /** How FTL P50 moved between the run's levels, without the verdict. */
  static String sweepEvidence(RunFinding.Sweep sweep) {
    return format(
        "TTFT P50 goes from %s ms at concurrency %d to %s ms at %d (%s)",
        Numbers.ms(sweep.baseline().ftlP50Ms()),
        sweep.baseline().concurrency(),
        Numbers.ms(sweep.contended().ftlP50Ms()),
        sweep.contended().concurrency(),
        Numbers.change(sweep.contended().ftlP50GrowthPct()));
  }

  /**
   * The server batched fewer requests than the client had in flight. Without a recorded level the
   * sentence names none: "at concurrency n/a" next to "no concurrency level is recorded" would
   * contradict it (docs/reports.md#no-concurrency-level).
   */
  static String batch(ReportEvidence.BatchWindow window) {
    String queue =
        window.serverWaitingMax() == null
            ? "queue length not recorded"
            : "queue up to " + window.serverWaitingMax();
    String batch = window.serverBatchMax() == null ? "n/a" : window.serverBatchMax().toString();
    String inFlight =
        window.clientInFlightMax() == null ? "n/a" : window.clientInFlightMax().toString();
    if (window.concurrency() == null) {
      return format(
          "The server ran at most %s requests at once while the client had up to %s in flight"
              + " (%s): the client's requests in flight are not the server's batch.",
          batch, inFlight, queue);
    }
    return format(
        "At concurrency %d the server ran at most %s requests at once while the client had up to"
            + " %s in flight (%s): client concurrency is not the server's batch.",
        window.concurrency(), batch, inFlight, queue);
  }

  private static String context(ReportEvidence.ContextBucket row) {
    return format(
        "ITL rises %s from its short to its long prompts (%s ms per 1000 tokens, R² %.2f):"
            + " decode is memory-bandwidth bound.",
        Numbers.change(row.mltRisePct()), signed(row.mltSlopeMsPerKtoken()), row.mltR2());
  }

  private static String prompt(ReportEvidence.PromptBucket row) {
    return format(
        "TTFT grows linearly with the prompt (%s ms per 1000 tokens, R² %.2f): prefill sets the"
            + " first-token latency.",
        signed(row.ftlSlopeMsPerKtoken()), row.ftlR2());
  }

  private static String warmup(ReportEvidence.WarmupPhase phase) {
    if (phase.phase().equals("warmup")) {
      return format(
          "Its %s had an TTFT P50 of %s ms, %s against the steady state (excluded from every"
              + " aggregate).",
          Numbers.count(phase.requests(), "warm-up request"),
          Numbers.ms(phase.ftlP50Ms()),
          Numbers.change(phase.ftlP50VsSteadyPct()));
    }
    return format(
        "Its first %s had an TTFT P50 %s against the rest: warm-up is counted in its numbers.",
        Numbers.count(phase.requests(), "request"), Numbers.change(phase.ftlP50VsSteadyPct()));
  }

  static String label(ReportData.Component row) {
    return BottleneckConclusion.label(row);
  }

  static boolean isQueue(ReportData.Component row) {
    return row.component().equals(ComponentKind.QUEUE.id());
  }

  private static String signed(@org.jspecify.annotations.Nullable Double value) {
    return value == null ? "n/a" : String.format(Locale.ROOT, "%+.1f", value);
  }

  static String capitalized(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  private static String format(String template, Object... values) {
    return String.format(Locale.ROOT, template, values);
  }
}
