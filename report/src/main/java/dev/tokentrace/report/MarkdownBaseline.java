package dev.tokentrace.report;

import dev.tokentrace.store.query.MarkdownTable;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** The baseline comparison section: the same metrics of another database, with the differences. */
final class MarkdownBaseline {
  private MarkdownBaseline() {}

  static String section(ReportData data) {
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
    MarkdownTable table =
        new MarkdownTable("metric", "stat", ">current", ">baseline", ">delta", ">change");
    for (BaselineComparison.Row row : BaselineComparison.rows(data, baseline)) {
      table.row(
          row.metric(),
          row.stat(),
          value(row.unit(), row.current()),
          value(row.unit(), row.baseline()),
          delta(row),
          row.unit().equals("share") ? "" : Numbers.change(row.changePct()));
    }
    return out.append(table.render()).append('\n').toString();
  }

  static String value(String unit, @Nullable Double value) {
    switch (unit) {
      case "share":
        return Numbers.share(value);
      case "ms":
        return value == null ? "n/a" : Numbers.ms(value) + " ms";
      case "count":
        return value == null ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
      default:
        return Numbers.rate(value);
    }
  }

  static String delta(BaselineComparison.Row row) {
    Double delta = row.delta();
    if (delta == null) {
      return "n/a";
    }
    switch (row.unit()) {
      case "share":
        return String.format(Locale.ROOT, "%+.1f pp", 100 * delta);
      case "ms":
        return String.format(Locale.ROOT, "%+.1f ms", delta);
      case "count":
        return String.format(Locale.ROOT, "%+.0f", delta);
      default:
        return (delta >= 0 ? "+" : "") + Numbers.rate(delta);
    }
  }
}
