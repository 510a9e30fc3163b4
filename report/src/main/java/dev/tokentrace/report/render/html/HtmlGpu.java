package dev.tokentrace.report.render.html;

import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.report.model.GpuSection;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Text;
import java.util.List;

/**
 * "GPU and co-tenants": per instance a chart of its GPUs on the batch timeline's clock with the
 * co-tenants and the slowest requests, a table of the instances and of the processes that are not
 * the engine, the findings and the /metrics histogram check; one line without GPU telemetry.
 */
final class HtmlGpu {
  /** Charts drawn at most. */
  static final int CHARTS = 4;

  private HtmlGpu() {}

  static String section(Report report) {
    GpuSection gpu = report.gpu();
    ReportEvidence evidence = report.data().evidence();
    StringBuilder out = new StringBuilder("<section id=\"gpu\"><h2>GPU and co-tenants</h2>");
    if (gpu.absent() != null) {
      out.append("<p class=\"note\">").append(Html.prose(gpu.absent())).append("</p>");
    } else {
      for (Text finding : gpu.findings()) {
        out.append("<p>").append(Html.prose(finding)).append("</p>");
      }
      out.append(instances(gpu.instances()));
      int charts = 0;
      for (GpuSection.Instance instance : gpu.instances()) {
        List<GpuEvidence.GpuPoint> points =
            evidence.gpu().timeline().stream()
                .filter(point -> point.instance().equals(instance.instance()))
                .toList();
        if (points.isEmpty() || charts++ >= CHARTS) {
          continue;
        }
        out.append("<h3>").append(Html.text(instance.instance())).append("</h3>");
        out.append(
            SvgGpu.chart(
                instance.instance(),
                points,
                evidence.timeline().stream()
                    .filter(point -> point.instance().equals(instance.instance()))
                    .toList(),
                instance.coTenants(),
                evidence.slowest()));
      }
      out.append(coTenants(gpu.instances()));
    }
    for (Text sentence : gpu.histograms()) {
      out.append("<p>").append(Html.prose(sentence)).append("</p>");
    }
    if (gpu.noHistograms() != null) {
      out.append("<p class=\"note\">").append(Html.prose(gpu.noHistograms())).append("</p>");
    }
    return out.append("</section>\n").toString();
  }

  private static String instances(List<GpuSection.Instance> instances) {
    HtmlTable table =
        new HtmlTable(
            "t",
            true,
            "instance",
            "tool",
            ">GPUs",
            ">util mean %",
            ">util max %",
            ">mem max MiB",
            ">mem total MiB",
            ">power mean W",
            ">power max W",
            ">co-tenants",
            ">requests hit",
            ">TPOT hit ms",
            ">TPOT clear ms");
    for (GpuSection.Instance row : instances) {
      table.row(
          HtmlTable.Cell.text(row.instance()),
          HtmlTable.Cell.text(row.tool()),
          HtmlTable.Cell.count(row.gpus()),
          HtmlTable.Cell.rate(row.utilMeanPct()),
          HtmlTable.Cell.rate(row.utilMaxPct()),
          HtmlTable.Cell.rate(row.memUsedMaxMib()),
          HtmlTable.Cell.rate(row.memTotalMib()),
          HtmlTable.Cell.rate(row.powerMeanW()),
          HtmlTable.Cell.rate(row.powerMaxW()),
          HtmlTable.Cell.count(row.coTenants().size()),
          HtmlTable.Cell.count(row.contendedRequests()),
          HtmlTable.Cell.ms(row.contendedTpotP50Ms()),
          HtmlTable.Cell.ms(row.clearTpotP50Ms()));
    }
    return table.render();
  }

  private static String coTenants(List<GpuSection.Instance> instances) {
    HtmlTable table =
        new HtmlTable(
            "t",
            true,
            "instance",
            "gpu",
            ">pid",
            "process",
            ">samples",
            "first",
            "last",
            ">max MiB");
    for (GpuSection.Instance instance : instances) {
      for (GpuEvidence.GpuProcessRow process : instance.coTenants()) {
        table.row(
            HtmlTable.Cell.text(process.instance()),
            HtmlTable.Cell.text(process.gpu()),
            HtmlTable.Cell.count(process.pid()),
            HtmlTable.Cell.text(process.processName()),
            HtmlTable.Cell.count(process.samples()),
            HtmlTable.Cell.text(String.valueOf(process.firstTs())),
            HtmlTable.Cell.text(String.valueOf(process.lastTs())),
            HtmlTable.Cell.rate(process.maxMemMib()));
      }
    }
    if (table.isEmpty()) {
      return "<p>No process other than the engine was seen on its GPUs.</p>";
    }
    return "<h3>Processes on the engines' GPUs that are not the engine</h3>" + table.render();
  }
}
