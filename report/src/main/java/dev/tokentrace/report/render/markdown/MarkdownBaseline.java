package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.BaselineRow;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.Locale;

/** The baseline comparison section: the same metrics of another database, with the differences. */
final class MarkdownBaseline {
  private MarkdownBaseline() {}

  static String section(Report report) {
    ReportData data = report.data();
    StringBuilder out = new StringBuilder("## Baseline comparison\n\n");
    ReportData.Baseline baseline = data.baseline();
    if (baseline == null) {
      return out.append(
              Prose.paragraph(
                  "No baseline given: `tokentrace report --baseline OTHER.duckdb` compares these"
                      + " metrics with another run's database (attached read-only), under the"
                      + " same definitions."))
          .toString();
    }
    out.append(
        Prose.paragraph(
            String.format(
                Locale.ROOT,
                "Against %s, as its last attribution stored it (%d of %d client requests"
                    + " attributed there). Change = current / baseline - 1; for latencies"
                    + " negative is faster, for throughput positive is more.",
                MarkdownText.code(baseline.database()),
                baseline.quality().includedRows(),
                baseline.quality().clientRows())));
    out.append(MarkdownConfig.baseline(report));
    MarkdownTable table =
        new MarkdownTable("metric", "stat", ">current", ">baseline", ">delta", ">change");
    for (BaselineRow row : report.baselineRows()) {
      table.row(
          row.metric(),
          row.stat(),
          row.shown(row.current()),
          row.shown(row.baseline()),
          row.shownDelta(),
          row.shownChange());
    }
    return out.append(table.render()).append('\n').toString();
  }
}
