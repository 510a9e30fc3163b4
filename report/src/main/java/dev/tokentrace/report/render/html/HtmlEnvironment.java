package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Text;

/**
 * The report page's environment (servers, their notices and startup facts, client runs) and its
 * reproducibility appendix.
 */
final class HtmlEnvironment {
  private HtmlEnvironment() {}

  static String environment(ReportData data) {
    ReportEvidence evidence = data.evidence();
    StringBuilder out = new StringBuilder("<section id=\"environment\"><h2>Environment</h2>");
    HtmlTable servers =
        new HtmlTable(
            "t",
            false,
            "instance",
            "engine",
            "version",
            "per-request source",
            ">records",
            ">arrivals",
            ">snapshots",
            ">batch steps",
            ">notices",
            "first (UTC)",
            "last (UTC)");
    for (ReportEvidence.Instance instance : evidence.instances()) {
      servers.row(
          HtmlTable.Cell.text(instance.instance()),
          HtmlTable.Cell.text(instance.engine()),
          HtmlTable.Cell.text(instance.version() == null ? "not logged" : instance.version()),
          HtmlTable.Cell.text(
              instance.requestSources() == null ? "none" : instance.requestSources()),
          HtmlTable.Cell.count(instance.requestTimingRows()),
          HtmlTable.Cell.count(instance.arrivals()),
          HtmlTable.Cell.count(instance.statsSnapshots()),
          HtmlTable.Cell.count(instance.batchSteps()),
          HtmlTable.Cell.count(instance.notices()),
          HtmlTable.Cell.text(String.valueOf(instance.firstTs())),
          HtmlTable.Cell.text(String.valueOf(instance.lastTs())));
    }
    out.append("<h3>Servers</h3>").append(servers.render());
    HtmlTable notices =
        new HtmlTable("t", false, "instance", "kind", ">notices", "first (UTC)", "~first message");
    for (ReportEvidence.NoticeCount notice : evidence.notices()) {
      notices.row(
          HtmlTable.Cell.text(notice.instance()),
          HtmlTable.Cell.text(notice.kind()),
          HtmlTable.Cell.count(notice.notices()),
          HtmlTable.Cell.text(String.valueOf(notice.firstTs())),
          HtmlTable.Cell.text(notice.firstMessage()));
    }
    if (!notices.isEmpty()) {
      out.append("<h3>Errors, preemptions and warnings the servers logged</h3>")
          .append(notices.render());
    }
    HtmlTable facts = new HtmlTable("t", false, "instance", "kind", "~said at startup");
    evidence.facts().forEach(fact -> facts.row(fact.instance(), fact.kind(), fact.message()));
    if (!facts.isEmpty()) {
      out.append("<h3>Startup and configuration</h3>").append(facts.render());
    }
    HtmlTable runs =
        new HtmlTable(
            "t",
            false,
            "run",
            "format",
            ">files",
            ">requests",
            ">warm-up",
            ">errors",
            ">attributed",
            "levels",
            "instances");
    for (ReportEvidence.RunOverview run : evidence.clientRuns()) {
      runs.row(
          HtmlTable.Cell.text(run.runId()),
          HtmlTable.Cell.text(run.clientFormats()),
          HtmlTable.Cell.count(run.files()),
          HtmlTable.Cell.count(run.requests()),
          HtmlTable.Cell.count(run.warmupRequests()),
          HtmlTable.Cell.count(run.errorRequests()),
          HtmlTable.Cell.count(run.attributedRequests()),
          HtmlTable.Cell.text(run.concurrencyLevels()),
          HtmlTable.Cell.text(run.instances()));
    }
    if (!runs.isEmpty()) {
      out.append("<h3>Client runs</h3>").append(runs.render());
    }
    return out.append("</section>\n").toString();
  }

  static String reproducibility(Report report) {
    StringBuilder out =
        new StringBuilder("<section id=\"reproducibility\"><h2>Reproducibility</h2><ul>");
    for (Text item : report.reproducibility()) {
      out.append("<li>").append(Html.prose(item)).append("</li>");
    }
    return out.append("</ul></section>\n").toString();
  }
}
