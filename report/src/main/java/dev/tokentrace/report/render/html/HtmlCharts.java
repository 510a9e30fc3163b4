package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.PdSection;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The report page's chart sections: where the time goes (stacked bars per percentile, shares per
 * run), FTL CDFs per concurrency level of each run that varies it, and the batch and queue
 * timelines of the servers that served the slowest requests.
 */
final class HtmlCharts {
  /** CDF charts drawn at most (runs with several levels first). */
  static final int CDF_CHARTS = 4;

  /** Timelines drawn at most: the instances of the slowest requests, slowest first. */
  static final int TIMELINES = 3;

  private HtmlCharts() {}

  static String attribution(ReportData data, int runs) {
    StringBuilder out =
        new StringBuilder("<section id=\"attribution\"><h2>Where the time goes</h2>");
    List<ReportData.Component> overall = data.components("all");
    if (overall.isEmpty()) {
      return out.append("<p>No request could be attributed; see the data-quality notes.</p>")
          .append("</section>\n")
          .toString();
    }
    out.append("<p class=\"note\">")
        .append(Numbers.count(data.quality().includedRows(), "attributed request"))
        .append(runs > 1 ? " of " + runs + " runs, pooled" : "")
        .append(". Each bar stacks the components' values at one percentile (they need not add up")
        .append(" to the total's percentile, marked &#9660;); hover for values.</p>");
    out.append(SvgComponentBars.percentiles(overall));
    List<ReportData.Component> byRun = data.components("run");
    List<String> groups =
        byRun.stream().map(row -> String.valueOf(row.groupValue())).distinct().toList();
    if (groups.size() > 1) {
      out.append("<h3>Share of end-to-end time, per run</h3>");
      out.append(SvgShares.chart(byRun, groups));
    }
    HtmlTable table =
        new HtmlTable(
            "t",
            false,
            "component",
            ">P50 ms",
            ">P90 ms",
            ">P95 ms",
            ">P99 ms",
            ">share",
            ">dominant in");
    for (ReportData.Component row : overall) {
      if (row.component().equals("decode")) {
        // P/D: kv transfer and decode-side queueing sit between prefill and decode
        // (docs/formats/pd.md#attribution)
        for (PdSection.Part part : data.pd().parts()) {
          table.row(
              HtmlTable.Cell.text(part.label()),
              HtmlTable.Cell.ms(part.p50Ms()),
              HtmlTable.Cell.ms(part.p90Ms()),
              HtmlTable.Cell.ms(part.p95Ms()),
              HtmlTable.Cell.ms(part.p99Ms()),
              HtmlTable.Cell.share(part.share()),
              HtmlTable.Cell.count(part.dominantRequests()));
        }
      }
      table.row(
          HtmlTable.Cell.text(row.label()),
          HtmlTable.Cell.ms(row.p50Ms()),
          HtmlTable.Cell.ms(row.p90Ms()),
          HtmlTable.Cell.ms(row.p95Ms()),
          HtmlTable.Cell.ms(row.p99Ms()),
          HtmlTable.Cell.share(row.share()),
          HtmlTable.Cell.count(row.dominantRequests()));
    }
    return out.append(table.render())
        .append(pd(data.pd()))
        .append(vantage(data))
        .append("</section>\n")
        .toString();
  }

  /** The prefill/decode pairs (docs/formats/pd.md#attribution); nothing for a single-server run. */
  static String pd(PdSection pd) {
    if (!pd.present()) {
      return "";
    }
    HtmlTable table =
        new HtmlTable(
            "t",
            false,
            "prefill",
            "decode",
            ">requests",
            ">kv P50 ms",
            ">kv P95 ms",
            ">decode q P50 ms",
            ">estimated",
            ">failed",
            ">expired");
    for (PdSection.Pair pair : pd.pairs()) {
      table.row(
          HtmlTable.Cell.text(pair.prefillInstance()),
          HtmlTable.Cell.text(pair.decodeInstance()),
          HtmlTable.Cell.count(pair.requests()),
          HtmlTable.Cell.ms(pair.kvP50Ms()),
          HtmlTable.Cell.ms(pair.kvP95Ms()),
          HtmlTable.Cell.ms(pair.decodeQueueP50Ms()),
          HtmlTable.Cell.count(pair.estimated()),
          HtmlTable.Cell.count(pair.failedTransfers()),
          HtmlTable.Cell.count(pair.expiredTransfers()));
    }
    StringBuilder out = new StringBuilder("<h3 id=\"pd\">Prefill/decode pairs</h3>");
    out.append("<p class=\"note\">").append(Html.text(PdSection.INTRO)).append("</p>");
    String note = pd.estimateNote();
    if (note != null) {
      out.append("<p class=\"note\">").append(Html.text(note)).append("</p>");
    }
    return out.append(table.render()).toString();
  }

  /**
   * Which view each run was attributed from and the two network legs where a gateway logged the
   * requests (docs/formats/gateways.md#three-vantage-points); nothing when every run is plain
   * client + engine.
   */
  static String vantage(ReportData data) {
    HtmlTable table =
        new HtmlTable(
            "t",
            false,
            "run",
            "vantage",
            ">attributed",
            ">client↔gateway P50 ms",
            ">P95 ms",
            ">gateway↔engine P50 ms",
            ">P95 ms");
    for (ReportEvidence.RunOverview run : data.evidence().clientRuns()) {
      if (run.vantage() == null || run.vantage().equals("client+engine")) {
        continue;
      }
      table.row(
          HtmlTable.Cell.text(run.runId()),
          HtmlTable.Cell.text(run.vantage()),
          HtmlTable.Cell.count(run.attributedRequests()),
          HtmlTable.Cell.ms(run.clientGatewayP50Ms()),
          HtmlTable.Cell.ms(run.clientGatewayP95Ms()),
          HtmlTable.Cell.ms(run.gatewayEngineP50Ms()),
          HtmlTable.Cell.ms(run.gatewayEngineP95Ms()));
    }
    if (table.isEmpty()) {
      return "";
    }
    return "<h3>Vantage</h3><p class=\"note\">Where each run's requests were seen from."
        + " client+gateway+engine: network split into client&#8596;gateway and gateway&#8596;engine"
        + " (the proxy's work, retries, transport to the engine, its pre- and post-processing)."
        + " gateway+engine: no client file, attributed from the gateway's view; nothing between"
        + " the users and the gateway is in it. end-to-end only: no first token seen (wrk,"
        + " JMeter, gateways).</p>"
        + table.render();
  }

  static String ftlCdf(ReportData data) {
    List<ReportEvidence.CdfPoint> points = data.evidence().ftlCdf();
    if (points.isEmpty()) {
      return "";
    }
    Map<String, List<ReportEvidence.CdfPoint>> byRun = new LinkedHashMap<>();
    for (ReportEvidence.CdfPoint point : points) {
      byRun.computeIfAbsent(point.runId(), key -> new ArrayList<>()).add(point);
    }
    StringBuilder out =
        new StringBuilder("<section id=\"ftl\"><h2>First-token latency by concurrency level</h2>");
    out.append("<p class=\"note\">Share of requests (status ok, warm-up excluded) whose TTFT is at")
        .append(" or below x. A curve that moves right as the level rises is queueing (the +50%")
        .append(" rule: TTFT growing more than 50% from concurrency 1 to 8).</p>");
    int charts = 0;
    out.append("<div class=\"grid2\">");
    for (Map.Entry<String, List<ReportEvidence.CdfPoint>> run : byRun.entrySet()) {
      Map<String, List<ReportEvidence.CdfPoint>> series = SvgCdf.series(run.getValue(), false);
      if (series.size() > 1 && charts < CDF_CHARTS) {
        out.append("<div><h3>Run <code>").append(Html.text(run.getKey())).append("</code></h3>");
        out.append(SvgCdf.chart("TTFT CDF of " + run.getKey(), series)).append("</div>");
        charts++;
      }
    }
    out.append("</div>");
    if (charts == 0) {
      Map<String, List<ReportEvidence.CdfPoint>> series = SvgCdf.series(points, true);
      Map<String, List<ReportEvidence.CdfPoint>> shown = new LinkedHashMap<>();
      series.entrySet().stream()
          .limit(SvgCdf.PALETTE.size())
          .forEach(entry -> shown.put(entry.getKey(), entry.getValue()));
      out.append("<p class=\"note\">No run varies its concurrency level; one curve per run.</p>");
      out.append(SvgCdf.chart("TTFT CDF per run", shown));
    }
    return out.append("</section>\n").toString();
  }

  static String timelines(ReportData data) {
    List<ReportEvidence.TimelinePoint> points = data.evidence().timeline();
    if (points.isEmpty()) {
      return "";
    }
    List<ReportEvidence.SlowRequest> slow = data.evidence().slowest();
    Set<String> instances = new LinkedHashSet<>();
    slow.stream()
        .map(ReportEvidence.SlowRequest::instance)
        .filter(Objects::nonNull)
        .forEach(instances::add);
    if (instances.isEmpty()) {
      instances.add(points.get(0).instance());
    }
    StringBuilder out =
        new StringBuilder("<section id=\"timeline\"><h2>Batch size and queue over time</h2>");
    out.append("<p class=\"note\">The servers that served the slowest requests: the largest batch")
        .append(" (running requests) and queue (waiting requests) per time slice, KV cache use,")
        .append(" and the slowest requests as bands from start to end (#rank).</p>");
    int charts = 0;
    for (String instance : instances) {
      List<ReportEvidence.TimelinePoint> series =
          points.stream().filter(point -> point.instance().equals(instance)).toList();
      if (series.isEmpty() || charts >= TIMELINES) {
        continue;
      }
      out.append("<h3>Instance <code>").append(Html.text(instance)).append("</code></h3>");
      out.append(SvgTimeline.chart(instance, series, slow));
      charts++;
    }
    if (charts == 0) {
      return "";
    }
    return out.append("</section>\n").toString();
  }
}
