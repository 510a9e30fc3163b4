package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.BaselineRow;
import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.GpuSection;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.RunSummary;
import dev.tokentrace.report.model.Suggestion;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws a {@link Report} from its rows: the bottleneck conclusion, one summary per run, the
 * suggestions, the data-quality notes, the appendix and the baseline comparison. Every number comes
 * from a query; this package picks and phrases, as structured {@link Text}. Stateless.
 */
public final class ReportAnalysis {
  /** How the core metrics are defined (the report's definitions paragraph). */
  static final Text DEFINITIONS =
      Text.of(
          "TTFT (time to first token, also FTL): request sent to first token, as the client saw"
              + " it. ITL (inter-token latency, also MLT): (E2E \u2212 TTFT) / (output tokens \u2212"
              + " 1), the mean time per token after the first (never E2E / tokens, which folds TTFT"
              + " in). TPOT: the server's decode time / (output tokens \u2212 1). E2E: the client's"
              + " end-to-end time. Over client requests with status ok, warm-up excluded; TPOT over"
              + " attributed requests only. Throughput: requests and output tokens per second from"
              + " a level's first start to its last end (tokens/s is not requests/s).");

  private ReportAnalysis() {}

  public static Report of(ReportData data) {
    List<RunFinding> findings = RunFindings.of(data);
    ReportData.Baseline baseline = data.baseline();
    List<BaselineRow> baselineRows =
        baseline == null ? List.of() : BaselineComparison.rows(data, baseline);
    GpuSection gpu = GpuAnalysis.of(data);
    List<Suggestion> suggestions = new ArrayList<>(Suggestions.of(data, findings));
    suggestions.addAll(GpuAnalysis.suggestions(gpu));
    return new Report(
        data,
        DEFINITIONS,
        BottleneckConclusion.sentences(data),
        findings.stream().map(ReportAnalysis::summary).toList(),
        suggestions,
        DataQualityNotes.notes(data),
        Reproducibility.items(data),
        baselineRows,
        EnvironmentSettings.of(data),
        ClientLoad.of(data),
        ConfigDiff.comparison(data),
        gpu);
  }

  private static RunSummary summary(RunFinding run) {
    ReportData.Component top = run.top();
    return new RunSummary(
        run.runId(),
        run.requests(),
        run.attributed(),
        run.verdict(),
        run.signals(),
        top == null ? null : ComponentKind.fromId(top.component()),
        top == null ? null : top.share(),
        run.sweep() != null,
        run.sweep() != null && run.sweep().queueing(),
        RunSentences.of(run));
  }
}
