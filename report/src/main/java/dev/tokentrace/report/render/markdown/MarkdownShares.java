package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.List;

/**
 * A table of component shares per group of one grouping of queries/attribution_summary, shown when
 * the grouping has more than one group. Headers are shortened when the full ones would make the
 * table wider than a terminal.
 */
final class MarkdownShares {
  private MarkdownShares() {}

  static String table(ReportData data, String grouping, String header, String title) {
    List<ReportData.Component> rows = data.components(grouping);
    if (grouping.equals("run_concurrency")) {
      rows = rows.stream().filter(row -> sweeps(data, row.runId())).toList();
    }
    List<String> groups =
        rows.stream().map(row -> String.valueOf(row.groupValue())).distinct().toList();
    if (groups.size() < 2) {
      return "";
    }
    MarkdownTable table = render(rows, groups, header, false);
    if (table.width() > Prose.WIDTH) {
      table = render(rows, groups, header, true);
      return title
          + "\n\n"
          + table.render()
          + "\n"
          + Prose.paragraph("net: network; client q / server q: queueing (client / server).");
    }
    return title + "\n\n" + table.render() + "\n";
  }

  /** Whether the run measured more than one level (pooling levels across runs misleads). */
  private static boolean sweeps(ReportData data, @org.jspecify.annotations.Nullable String runId) {
    return runId != null && data.levels(runId).size() > 1;
  }

  private static MarkdownTable render(
      List<ReportData.Component> rows, List<String> groups, String header, boolean shortHeaders) {
    MarkdownTable table =
        shortHeaders
            ? new MarkdownTable(
                header, ">requests", ">net", ">client q", ">server q", ">prefill", ">decode")
            : new MarkdownTable(
                header,
                ">requests",
                ">network",
                ">queueing (client)",
                ">queueing (server)",
                ">prefill",
                ">decode");
    for (String group : groups) {
      List<ReportData.Component> of =
          rows.stream().filter(row -> String.valueOf(row.groupValue()).equals(group)).toList();
      table.row(
          group,
          Long.toString(of.get(0).requests()),
          MarkdownReportWriter.share(of, ComponentKind.NETWORK),
          MarkdownReportWriter.share(of, ComponentKind.CLIENT_QUEUE),
          MarkdownReportWriter.share(of, ComponentKind.QUEUE),
          MarkdownReportWriter.share(of, ComponentKind.PREFILL),
          MarkdownReportWriter.share(of, ComponentKind.DECODE));
    }
    return table;
  }
}
