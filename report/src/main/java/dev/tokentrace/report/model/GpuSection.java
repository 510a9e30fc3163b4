package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The report's "GPU and co-tenants" section as the analysis concluded it: one summary per instance
 * with GPU telemetry, the findings (slow requests that coincide with another process on the GPU),
 * and the cross-check of the server's own /metrics histograms. {@code absent} is the one line said
 * when there is no GPU data at all (the section is never silent).
 *
 * @param instances per instance: its GPUs' figures and co-tenants, in instance order
 * @param findings one sentence or two per instance whose requests overlapped a co-tenant
 * @param histograms per instance with /metrics histograms: agree / disagree, with the figures
 * @param absent the line said instead when no GPU telemetry was loaded, else null
 * @param noHistograms the line said when no /metrics histogram was loaded, else null
 */
public record GpuSection(
    List<Instance> instances,
    List<Text> findings,
    List<Text> histograms,
    @Nullable Text absent,
    @Nullable Text noHistograms) {
  public GpuSection {
    instances = List.copyOf(instances);
    findings = List.copyOf(findings);
    histograms = List.copyOf(histograms);
  }

  /**
   * One instance's GPUs over the run.
   *
   * @param contendedRequests requests that ran while a co-tenant held the GPU
   * @param contendedTpotP50Ms their median TPOT
   * @param clearTpotP50Ms the median TPOT of the instance's requests no co-tenant touched
   */
  public record Instance(
      String instance,
      String tool,
      long gpus,
      @Nullable Double utilMeanPct,
      @Nullable Double utilMaxPct,
      @Nullable Double memUsedMaxMib,
      @Nullable Double memTotalMib,
      @Nullable Double powerMeanW,
      @Nullable Double powerMaxW,
      List<GpuEvidence.GpuProcessRow> coTenants,
      long contendedRequests,
      @Nullable Double contendedTpotP50Ms,
      @Nullable Double clearTpotP50Ms) {
    public Instance {
      requireNonNull(instance, "instance is null");
      requireNonNull(tool, "tool is null");
      coTenants = List.copyOf(coTenants);
    }
  }
}
