package dev.tokentrace.report.load;

import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.store.query.QueryRows;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Reads {@link GpuEvidence}: the GPU timeline (120 slices per instance, the batch timeline's
 * resolution), the processes on the GPUs, the requests that overlapped a co-tenant (at most {@link
 * GpuEvidence#CONTENDED_ROWS}) and the /metrics histogram check.
 */
final class GpuLoader {
  static final String GPU_TIMELINE = "report/gpu_timeline";
  static final String GPU_PROCESSES = "report/gpu_processes";
  static final String HISTOGRAM_CHECK = "report/histogram_check";
  static final String GPU_CONTENTION = "queries/gpu_contention";

  private GpuLoader() {}

  static GpuEvidence load(Handle handle) {
    List<GpuEvidence.ContendedRequest> contended =
        QueryRows.list(handle, GPU_CONTENTION, GpuEvidence.ContendedRequest.class);
    return new GpuEvidence(
        QueryRows.list(
            handle,
            GPU_TIMELINE,
            GpuEvidence.GpuPoint.class,
            Map.of("buckets", Integer.toString(EvidenceLoader.TIMELINE_BUCKETS))),
        QueryRows.list(handle, GPU_PROCESSES, GpuEvidence.GpuProcessRow.class),
        contended.size() > GpuEvidence.CONTENDED_ROWS
            ? contended.subList(0, GpuEvidence.CONTENDED_ROWS)
            : contended,
        QueryRows.list(handle, HISTOGRAM_CHECK, GpuEvidence.HistogramCheck.class));
  }
}
