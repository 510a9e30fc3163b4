package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.MatrixRegressions;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.List;
import java.util.Locale;

/**
 * The sweep of {@code loadgen --matrix} (docs/reports.md#matrix): per cell TTFT, ITL and TPOT at
 * P50/P95, requests/s and output tokens/s, then the two regressions the method reads from it.
 * Nothing when no run is a sweep.
 */
final class MarkdownMatrix {
  private MarkdownMatrix() {}

  static String section(ReportEvidence evidence) {
    List<ReportEvidence.MatrixRow> rows = evidence.matrix();
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("## Sweep matrix\n\n");
    out.append(
        Prose.paragraph(
            "Each cell of a loadgen --matrix sweep (warm-up excluded): TTFT = time to the first"
                + " token; ITL = the client's mean gap between tokens, (E2E − TTFT) / (output"
                + " tokens − 1); TPOT = the server's decode / (output tokens − 1); requests/s and"
                + " output tokens/s over the cell's window, kept apart."));
    MarkdownTable table =
        new MarkdownTable(
            "run",
            ">prompt",
            ">output",
            ">conc.",
            ">requests",
            ">TTFT P50",
            ">P95",
            ">ITL P50",
            ">P95",
            ">TPOT P50",
            ">P95",
            ">req/s",
            ">out tok/s");
    for (ReportEvidence.MatrixRow row : rows) {
      table.row(
          row.runId(),
          String.valueOf(row.promptTokens()),
          String.valueOf(row.maxTokens()),
          String.valueOf(row.concurrency()),
          Long.toString(row.requests()),
          Numbers.ms(row.ttftP50Ms()),
          Numbers.ms(row.ttftP95Ms()),
          Numbers.ms(row.itlP50Ms()),
          Numbers.ms(row.itlP95Ms()),
          Numbers.ms(row.tpotP50Ms()),
          Numbers.ms(row.tpotP95Ms()),
          Numbers.rate(row.requestsPerS()),
          Numbers.rate(row.outputTokensPerS()));
    }
    out.append("Times in ms.\n\n").append(table.render()).append('\n');
    List<MatrixRegressions.Regression> regressions = MatrixRegressions.of(rows);
    if (regressions.isEmpty()) {
      out.append(
          Prose.paragraph(
              "No regression: no dimension has two levels with the others held fixed."));
    }
    for (MatrixRegressions.Regression regression : regressions) {
      out.append(Prose.bullet(sentence(regression)));
    }
    return out.append('\n').toString();
  }

  /** E.g. "`sweep`: ITL P50 grows ×1.41 (+41.0%) each time concurrency doubles (12 cells)." */
  static String sentence(MatrixRegressions.Regression regression) {
    return String.format(
        Locale.ROOT,
        "%s: %s P50 %s ×%.2f (%+.1f%%) each time %s doubles (fit over %d cells in %d %s).",
        MarkdownText.code(regression.runId()),
        regression.metric().toUpperCase(Locale.ROOT),
        regression.factorPerDoubling() >= 1 ? "grows" : "changes",
        regression.factorPerDoubling(),
        regression.percentPerDoubling(),
        regression.dimension().equals("concurrency")
            ? "concurrency"
            : "the " + regression.dimension() + " length",
        regression.cells(),
        regression.groups(),
        regression.groups() == 1 ? "series" : "series");
  }
}
