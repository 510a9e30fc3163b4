package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.MatrixRegressions;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import java.util.List;
import java.util.Locale;

/**
 * The sweep of {@code loadgen --matrix} (docs/reports.md#matrix) as HTML: the per-cell table and
 * the two regressions; nothing when no run is a sweep.
 */
final class HtmlMatrix {
  private HtmlMatrix() {}

  static String section(ReportData data) {
    List<ReportEvidence.MatrixRow> rows = data.evidence().matrix();
    if (rows.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("<section id=\"matrix\"><h2>Sweep matrix</h2>");
    out.append("<p class=\"note\">Each cell of a loadgen --matrix sweep (warm-up excluded):")
        .append(" TTFT = time to the first token; ITL = the client's mean gap between tokens;")
        .append(" TPOT = the server's decode / (output tokens &#8722; 1); requests/s and output")
        .append(" tokens/s over the cell's window, kept apart.</p>");
    HtmlTable table =
        new HtmlTable(
            "t",
            false,
            "run",
            ">prompt tokens",
            ">output tokens",
            ">concurrency",
            ">requests",
            ">TTFT P50 ms",
            ">TTFT P95 ms",
            ">ITL P50 ms",
            ">ITL P95 ms",
            ">TPOT P50 ms",
            ">TPOT P95 ms",
            ">requests/s",
            ">output tokens/s");
    for (ReportEvidence.MatrixRow row : rows) {
      table.row(
          HtmlTable.Cell.text(row.runId()),
          HtmlTable.Cell.count(row.promptTokens()),
          HtmlTable.Cell.count(row.maxTokens()),
          HtmlTable.Cell.count(row.concurrency()),
          HtmlTable.Cell.count(row.requests()),
          HtmlTable.Cell.ms(row.ttftP50Ms()),
          HtmlTable.Cell.ms(row.ttftP95Ms()),
          HtmlTable.Cell.ms(row.itlP50Ms()),
          HtmlTable.Cell.ms(row.itlP95Ms()),
          HtmlTable.Cell.ms(row.tpotP50Ms()),
          HtmlTable.Cell.ms(row.tpotP95Ms()),
          HtmlTable.Cell.rate(row.requestsPerS()),
          HtmlTable.Cell.rate(row.outputTokensPerS()));
    }
    out.append(table.render()).append("<ul>");
    for (MatrixRegressions.Regression regression : MatrixRegressions.of(rows)) {
      out.append("<li>")
          .append(
              Html.text(
                  String.format(
                      Locale.ROOT,
                      "%s: %s P50 \u00d7%.2f (%+.1f%%) each time %s doubles (fit over %d cells).",
                      regression.runId(),
                      regression.metric().toUpperCase(Locale.ROOT),
                      regression.factorPerDoubling(),
                      regression.percentPerDoubling(),
                      regression.dimension().equals("concurrency")
                          ? "concurrency"
                          : "the " + regression.dimension() + " length",
                      regression.cells())))
          .append("</li>");
    }
    return out.append("</ul></section>\n").toString();
  }
}
