package dev.tokentrace.report.load;

import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.query.QueryRows;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * Reads {@link ReportEvidence}: the root-cause queries with the report's limits (the ten slowest
 * requests, 120 timeline slices per instance, 40 CDF points per series, 5000 table rows).
 */
final class EvidenceLoader {
  static final int SLOWEST = 10;
  static final int TIMELINE_BUCKETS = 120;
  static final int CDF_POINTS = 40;

  private EvidenceLoader() {}

  static ReportEvidence load(Handle handle, String command, StoredResults results) {
    return new ReportEvidence(
        command,
        runs(handle, results),
        QueryRows.list(handle, ReportQueries.ENVIRONMENT_INSTANCES, ReportEvidence.Instance.class),
        QueryRows.list(handle, ReportQueries.ENVIRONMENT_FACTS, ReportEvidence.Fact.class),
        throughput(handle, results),
        ReportDataLoader.concurrency(handle, results, "instance"),
        contexts(handle, results),
        prompts(handle, results),
        batches(handle, results),
        warmup(handle, results),
        slowest(handle, results),
        QueryRows.list(handle, ReportQueries.NOTICE_COUNTS, ReportEvidence.NoticeCount.class),
        QueryRows.list(
            handle,
            ReportQueries.NOTICES_NEAR_SLOW,
            ReportEvidence.NearNotice.class,
            Map.of("limit", Integer.toString(SLOWEST))),
        outliers(handle, results),
        cdf(handle, results),
        timeline(handle, results),
        requestRows(handle, results),
        QueryRows.list(handle, ReportQueries.ENVIRONMENT_CONFIG, ReportEvidence.ConfigRow.class),
        load(handle, results),
        matrix(handle, results),
        GpuLoader.load(handle));
  }

  /**
   * The evidence queries whose results {@link StoredResults} keeps: each scans every attributed
   * request or client row, or every batch step and stats snapshot (seconds each at 10 M requests),
   * and reads only tables the attribution's input fingerprint covers
   * (docs/design.md#stored-report-results). The others read small tables or tables outside the
   * fingerprint (notices, configuration, GPU).
   */
  static void costly(Handle handle, StoredResults results) {
    ReportDataLoader.concurrency(handle, results, "instance");
    contexts(handle, results);
    prompts(handle, results);
    batches(handle, results);
    warmup(handle, results);
    outliers(handle, results);
    cdf(handle, results);
    runs(handle, results);
    throughput(handle, results);
    slowest(handle, results);
    timeline(handle, results);
    requestRows(handle, results);
    load(handle, results);
    matrix(handle, results);
  }

  private static List<ReportEvidence.RunOverview> runs(Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.RUN_OVERVIEW, ReportEvidence.RunOverview.class, Map.of());
  }

  private static List<ReportEvidence.Throughput> throughput(Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.THROUGHPUT, ReportEvidence.Throughput.class, Map.of());
  }

  private static List<ReportEvidence.SlowRequest> slowest(Handle handle, StoredResults results) {
    return results.list(
        handle,
        Queries.SLOWEST_REQUESTS,
        ReportEvidence.SlowRequest.class,
        Map.of("limit", Integer.toString(SLOWEST)));
  }

  private static List<ReportEvidence.TimelinePoint> timeline(Handle handle, StoredResults results) {
    return results.list(
        handle,
        ReportQueries.INSTANCE_TIMELINE,
        ReportEvidence.TimelinePoint.class,
        Map.of("buckets", Integer.toString(TIMELINE_BUCKETS)));
  }

  private static List<ReportEvidence.RequestRow> requestRows(Handle handle, StoredResults results) {
    return results.list(
        handle,
        ReportQueries.REQUEST_ROWS,
        ReportEvidence.RequestRow.class,
        Map.of("limit", Integer.toString(ReportEvidence.REQUEST_ROWS)));
  }

  private static List<ReportEvidence.LoadRow> load(Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.ENVIRONMENT_LOAD, ReportEvidence.LoadRow.class, Map.of());
  }

  private static List<ReportEvidence.MatrixRow> matrix(Handle handle, StoredResults results) {
    return results.list(handle, ReportQueries.MATRIX, ReportEvidence.MatrixRow.class, Map.of());
  }

  private static List<ReportEvidence.ContextBucket> contexts(Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.MLT_VS_CONTEXT, ReportEvidence.ContextBucket.class, Map.of());
  }

  private static List<ReportEvidence.PromptBucket> prompts(Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.PREFILL_VS_PROMPT, ReportEvidence.PromptBucket.class, Map.of());
  }

  private static List<ReportEvidence.BatchWindow> batches(Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.BATCH_VS_CONCURRENCY, ReportEvidence.BatchWindow.class, Map.of());
  }

  private static List<ReportEvidence.WarmupPhase> warmup(Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.WARMUP_EFFECT, ReportEvidence.WarmupPhase.class, Map.of());
  }

  private static List<ReportEvidence.NetworkOutlier> outliers(
      Handle handle, StoredResults results) {
    return results.list(
        handle, ReportQueries.NETWORK_OUTLIERS, ReportEvidence.NetworkOutlier.class, Map.of());
  }

  private static List<ReportEvidence.CdfPoint> cdf(Handle handle, StoredResults results) {
    return results.list(
        handle,
        ReportQueries.FTL_CDF,
        ReportEvidence.CdfPoint.class,
        Map.of("points", Integer.toString(CDF_POINTS)));
  }
}
