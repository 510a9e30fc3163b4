package dev.tokentrace.report.render.markdown;

import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.report.model.GpuSection;
import dev.tokentrace.report.model.Numbers;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.Text;
import dev.tokentrace.store.query.MarkdownTable;
import java.util.List;

/**
 * "GPU and co-tenants": per instance its GPUs' utilisation, memory and power, the processes on them
 * that are not the engine, the contention findings and the /metrics histogram check; one line when
 * no GPU telemetry was loaded.
 */
final class MarkdownGpu {
  private MarkdownGpu() {}

  static String section(Report report) {
    GpuSection gpu = report.gpu();
    StringBuilder out = new StringBuilder("## GPU and co-tenants\n\n");
    if (gpu.absent() != null) {
      out.append(Prose.paragraph(MarkdownText.of(gpu.absent())));
    } else {
      out.append(instances(gpu.instances()));
      out.append(coTenants(gpu.instances()));
      for (Text finding : gpu.findings()) {
        out.append(Prose.paragraph(MarkdownText.of(finding)));
      }
      out.append(
          Prose.paragraph(
              "The timeline per slice (120 per instance, on the batch timeline's clock):"
                  + " `report --format json` (gpu.timeline) or the HTML report's chart;"
                  + " `tokentrace sql gpu_contention` lists every request that overlapped a"
                  + " co-tenant."));
    }
    for (Text sentence : gpu.histograms()) {
      out.append(Prose.paragraph(MarkdownText.of(sentence)));
    }
    if (gpu.noHistograms() != null) {
      out.append(Prose.paragraph(MarkdownText.of(gpu.noHistograms())));
    }
    return out.toString();
  }

  private static String instances(List<GpuSection.Instance> instances) {
    MarkdownTable table =
        new MarkdownTable(
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
          row.instance(),
          row.tool(),
          Long.toString(row.gpus()),
          Numbers.rate(row.utilMeanPct()),
          Numbers.rate(row.utilMaxPct()),
          Numbers.rate(row.memUsedMaxMib()),
          Numbers.rate(row.memTotalMib()),
          Numbers.rate(row.powerMeanW()),
          Numbers.rate(row.powerMaxW()),
          Integer.toString(row.coTenants().size()),
          Long.toString(row.contendedRequests()),
          Numbers.ms(row.contendedTpotP50Ms()),
          Numbers.ms(row.clearTpotP50Ms()));
    }
    return table.render() + "\n";
  }

  private static String coTenants(List<GpuSection.Instance> instances) {
    MarkdownTable table =
        new MarkdownTable(
            "instance", "gpu", ">pid", "process", ">samples", "first", "last", ">max MiB");
    int rows = 0;
    for (GpuSection.Instance instance : instances) {
      for (GpuEvidence.GpuProcessRow process : instance.coTenants()) {
        table.row(
            process.instance(),
            process.gpu(),
            Long.toString(process.pid()),
            process.processName() == null ? "n/a" : process.processName(),
            Long.toString(process.samples()),
            String.valueOf(process.firstTs()),
            String.valueOf(process.lastTs()),
            Numbers.rate(process.maxMemMib()));
        rows++;
      }
    }
    if (rows == 0) {
      return Prose.paragraph("No process other than the engine was seen on its GPUs.");
    }
    return "Processes on the engines' GPUs that are not the engine:\n\n" + table.render() + "\n";
  }
}
