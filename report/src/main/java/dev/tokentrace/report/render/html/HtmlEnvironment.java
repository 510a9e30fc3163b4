package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.ServerSettings;
import dev.tokentrace.report.model.Text;
import java.util.List;

/**
 * The report page's environment (servers, their notices and startup facts, client runs) and its
 * reproducibility appendix.
 */
final class HtmlEnvironment {
  private HtmlEnvironment() {}

  static String environment(Report report) {
    ReportData data = report.data();
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
    out.append(configuration(report));
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
            "vantage",
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
          HtmlTable.Cell.text(run.vantage()),
          HtmlTable.Cell.text(run.concurrencyLevels()),
          HtmlTable.Cell.text(run.instances()));
    }
    if (!runs.isEmpty()) {
      out.append("<h3>Client runs</h3>").append(runs.render());
    }
    HtmlTable load = new HtmlTable("t", false, "run", "~load, as the client recorded it");
    report.load().forEach(row -> load.row(row.runId(), row.text().plain()));
    if (!load.isEmpty()) {
      out.append("<h3>Load (warm-up excluded)</h3>").append(load.render());
    }
    return out.append("</section>\n").toString();
  }

  /** Each instance's settings with the key and line they came from; the unknown ones and how. */
  private static String configuration(Report report) {
    List<ServerSettings> instances = report.configuration();
    HtmlTable settings = new HtmlTable("t", false, "instance", "setting", "~value", "key", "line");
    HtmlTable unknown = new HtmlTable("t", false, "instance", "setting", "~how to record it");
    HtmlTable changed = new HtmlTable("t", false, "instance", "~restarted with other");
    for (ServerSettings instance : instances) {
      for (ServerSettings.Item item : instance.items()) {
        settings.row(instance.instance(), item.setting(), item.value(), item.key(), item.source());
      }
      for (ServerSettings.Unknown gap : instance.unknown()) {
        unknown.row(instance.instance(), gap.setting(), gap.how().plain());
      }
      if (!instance.changed().isEmpty()) {
        changed.row(instance.instance(), String.join(", ", instance.changed()));
      }
    }
    StringBuilder out = new StringBuilder();
    if (!settings.isEmpty()) {
      out.append("<h3>Configuration, as the servers printed it at startup</h3>")
          .append(settings.render());
    }
    if (!changed.isEmpty()) {
      out.append(
              "<h3>Settings that changed across restarts"
                  + " (<code>tokentrace sql server_config -p changes_only=true</code>)</h3>")
          .append(changed.render());
    }
    if (!unknown.isEmpty()) {
      out.append("<h3>Unknown, and how to record it</h3>").append(unknown.render());
    }
    return out.toString();
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
