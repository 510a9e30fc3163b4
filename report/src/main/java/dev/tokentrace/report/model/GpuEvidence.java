package dev.tokentrace.report.model;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The rows of the report's "GPU and co-tenants" section, one list per query (column for column;
 * definitions in each file's header): the GPUs' timeline, the processes on them, the requests that
 * overlapped a co-tenant, and the server's own histograms against the attribution.
 */
public record GpuEvidence(
    List<GpuPoint> timeline,
    List<GpuProcessRow> processes,
    List<ContendedRequest> contended,
    List<HistogramCheck> histograms) {
  /** Contended rows the report keeps (the slowest first); {@code sql gpu_contention} has all. */
  public static final int CONTENDED_ROWS = 5000;

  public GpuEvidence {
    timeline = List.copyOf(timeline);
    processes = List.copyOf(processes);
    contended = List.copyOf(contended);
    histograms = List.copyOf(histograms);
  }

  /** No GPU telemetry and no /metrics histograms. */
  public static GpuEvidence empty() {
    return new GpuEvidence(List.of(), List.of(), List.of(), List.of());
  }

  /** One row of report/gpu_timeline. */
  public record GpuPoint(
      String instance,
      String tool,
      long bucket,
      Instant bucketStartTs,
      Instant bucketEndTs,
      long samples,
      long gpus,
      @Nullable Double utilMeanPct,
      @Nullable Double utilMaxPct,
      @Nullable Double memUsedMib,
      @Nullable Double memTotalMib,
      @Nullable Double powerW) {}

  /** One row of report/gpu_processes. */
  public record GpuProcessRow(
      String instance,
      String gpu,
      long pid,
      @Nullable String processName,
      boolean isEngine,
      long samples,
      @Nullable Instant firstTs,
      @Nullable Instant lastTs,
      @Nullable Double maxMemMib,
      @Nullable Double maxSmPct) {}

  /** One row of queries/gpu_contention: a request that ran while a co-tenant held the GPU. */
  public record ContendedRequest(
      String requestKey,
      String runId,
      String instance,
      String gpu,
      long coTenantPid,
      @Nullable String coTenantName,
      Instant requestStartTs,
      Instant requestEndTs,
      @Nullable Double tpotMs,
      @Nullable Double clearTpotP50Ms,
      @Nullable Double slowdown,
      @Nullable Double decodeMs,
      @Nullable Double clientE2eMs) {}

  /** One row of report/histogram_check. */
  public record HistogramCheck(
      String instance,
      String component,
      String metric,
      long intervals,
      long serverRequests,
      @Nullable Double serverMeanMs,
      @Nullable Double serverP50Ms,
      long attributedRequests,
      @Nullable Double attributedMeanMs,
      @Nullable Double attributedP50Ms,
      @Nullable Double differenceMs,
      @Nullable Boolean agrees) {}
}
