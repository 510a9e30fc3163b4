package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.BaselineRow;
import dev.tokentrace.report.model.ConfigComparison;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.RunSummary;
import dev.tokentrace.report.model.Suggestion;
import dev.tokentrace.report.model.Text;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The report page's prose sections: the header with summary cards, the bottleneck conclusion with
 * each run's findings, suggestions, the baseline comparison and the data-quality notes. The tables
 * are in {@link HtmlDetails}. Everything shown goes through {@link Html}.
 */
final class HtmlSections {
  private HtmlSections() {}

  static String header(ReportData data, List<RunSummary> findings) {
    StringBuilder out = new StringBuilder("<header><h1>tokentrace report</h1>");
    out.append("<div class=\"meta\">Database <code>")
        .append(Html.text(data.database()))
        .append("</code> &middot; generated ")
        .append(Html.text(data.generatedAt().toString()))
        .append(" &middot; ")
        .append(Numbers.count(findings.size(), "run"))
        .append("</div><div class=\"cards\">");
    var q = data.quality();
    card(
        out,
        "Attributed",
        q.includedRows() + " / " + q.clientRows(),
        "join rate " + Numbers.share(q.joinRate()));
    Optional<ReportData.Metric> ftl = metric(data, "ftl");
    card(
        out,
        "TTFT P50 / P95",
        ftl.map(m -> Numbers.ms(m.p50Ms()) + " / " + Numbers.ms(m.p95Ms())).orElse("n/a"),
        "ms, as the client saw it");
    Optional<ReportData.Metric> mlt = metric(data, "mlt");
    card(
        out,
        "ITL P50 / P95",
        mlt.map(m -> Numbers.ms(m.p50Ms()) + " / " + Numbers.ms(m.p95Ms())).orElse("n/a"),
        "ms per token after the first");
    Optional<ReportData.Component> top =
        data.components("all").stream()
            .filter(row -> !row.component().equals("total") && row.share() != null)
            .max((a, b) -> Double.compare(a.share(), b.share()));
    card(
        out,
        "Largest component",
        top.map(ReportData.Component::label).orElse("n/a"),
        top.map(row -> Numbers.share(row.share()) + " of E2E, pooled")
            .orElse("nothing attributed"));
    long queueing = findings.stream().filter(RunSummary::queueing).count();
    long sweeps = findings.stream().filter(RunSummary::sweep).count();
    card(
        out,
        "Queueing under load",
        sweeps == 0 ? "n/a" : queueing + " of " + sweeps,
        sweeps == 0 ? "no run varies its concurrency" : "runs over the +50% TTFT rule");
    return out.append("</div></header>\n").toString();
  }

  private static void card(StringBuilder out, String key, String value, String sub) {
    out.append("<div class=\"card\"><div class=\"k\">")
        .append(Html.text(key))
        .append("</div><div class=\"v\">")
        .append(Html.text(value))
        .append("</div><div class=\"s\">")
        .append(Html.text(sub))
        .append("</div></div>");
  }

  private static Optional<ReportData.Metric> metric(ReportData data, String name) {
    return data.metrics("all").stream().filter(m -> m.metric().equals(name)).findFirst();
  }

  static String bottleneck(Report report) {
    return "<section id=\"bottleneck\"><h2>Bottleneck</h2><p class=\"lead\">"
        + Html.prose(Text.join(" ", report.bottleneck()))
        + "</p></section>\n";
  }

  static String findings(List<RunSummary> findings) {
    if (findings.isEmpty()) {
      return "";
    }
    StringBuilder out = new StringBuilder("<section id=\"runs\"><h2>Findings by run</h2>");
    out.append("<p class=\"note\">Each run is one workload; its levels, prompts and batches are")
        .append(" compared within the run only.</p>");
    for (RunSummary run : findings) {
      out.append("<div class=\"run\"><div class=\"rh\"><code>")
          .append(Html.text(run.runId()))
          .append("</code>");
      String color = run.top() == null ? "#8a93a5" : SvgComponentBars.color(run.top());
      out.append("<span class=\"chip v\" style=")
          .append(Html.attr("background:" + color))
          .append('>')
          .append(Html.text(run.verdict()))
          .append(run.top() == null ? "" : " " + Html.text(Numbers.share(run.topShare())))
          .append("</span>");
      for (String signal : run.signals()) {
        out.append("<span class=\"chip sig\">").append(Html.text(signal)).append("</span>");
      }
      out.append("</div><p>")
          .append(Html.prose(Text.join(" ", run.sentences())))
          .append("</p></div>");
    }
    return out.append("</section>\n").toString();
  }

  static String suggestions(List<Suggestion> suggestions) {
    StringBuilder out = new StringBuilder("<section id=\"suggestions\"><h2>Suggestions</h2>");
    if (suggestions.isEmpty()) {
      return out.append("<p>Nothing in the data calls for a change.</p></section>\n").toString();
    }
    out.append("<ul>");
    for (Suggestion suggestion : suggestions) {
      out.append("<li>").append(Html.prose(suggestion.text())).append("</li>");
    }
    return out.append("</ul></section>\n").toString();
  }

  static String baseline(Report report) {
    ReportData data = report.data();
    StringBuilder out = new StringBuilder("<section id=\"baseline\"><h2>Baseline comparison</h2>");
    ReportData.Baseline baseline = data.baseline();
    if (baseline == null) {
      return out.append(
              "<p class=\"note\">No baseline given: <code>tokentrace report --baseline"
                  + " OTHER.duckdb</code> compares these metrics with another run's database.</p>")
          .append("</section>\n")
          .toString();
    }
    out.append("<p class=\"note\">Against <code>")
        .append(Html.text(baseline.database()))
        .append(
            String.format(
                Locale.ROOT,
                "</code>, as its last attribution stored it (%d of %d requests attributed there).",
                baseline.quality().includedRows(),
                baseline.quality().clientRows()))
        .append(" For latencies a negative change is faster.</p>");
    out.append(configuration(report));
    HtmlTable table =
        new HtmlTable("t", false, "metric", "stat", ">current", ">baseline", ">delta", ">change");
    for (BaselineRow row : report.baselineRows()) {
      table.row(
          row.metric(),
          row.stat(),
          row.shown(row.current()),
          row.shown(row.baseline()),
          row.shownDelta(),
          row.shownChange());
    }
    return out.append(table.render()).append("</section>\n").toString();
  }

  /** The configuration differences with the baseline, before the latencies. */
  private static String configuration(Report report) {
    ConfigComparison result = report.baselineConfiguration();
    if (result == null) {
      return "";
    }
    StringBuilder out = new StringBuilder("<h3>Configuration</h3><p>");
    out.append(Html.prose(result.sentence())).append("</p>");
    HtmlTable table = new HtmlTable("t", false, "instance", "setting", "baseline", "current");
    for (ConfigComparison.Difference row : result.differences()) {
      table.row(
          row.instance(),
          row.label(),
          row.baseline() == null ? "unknown" : row.baseline(),
          row.current() == null ? "unknown" : row.current());
    }
    if (!table.isEmpty()) {
      out.append(table.render());
    }
    return out.append("<h3>Latency and throughput</h3>").toString();
  }

  static String quality(Report report) {
    StringBuilder out = new StringBuilder("<section id=\"quality\"><h2>Data quality</h2><ul>");
    for (Text note : report.qualityNotes()) {
      out.append("<li>").append(Html.prose(note)).append("</li>");
    }
    return out.append("</ul></section>\n").toString();
  }
}
