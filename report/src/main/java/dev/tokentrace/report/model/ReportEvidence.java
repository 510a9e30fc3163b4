package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The report's root-cause evidence and appendix: one list per query of {@code sql/queries/} and
 * {@code sql/report/}, each element one row of it (column for column; definitions in the file's
 * header). The by-instance concurrency series are there for sweeps loaded one level per run.
 *
 * <p>(Longer than the house's 200 lines: one record per query row, side by side so they read
 * against the SQL headers and docs/report-schema.json.)
 */
public record ReportEvidence(
    String command,
    List<RunOverview> runs,
    List<Instance> instances,
    List<Fact> facts,
    List<Throughput> throughput,
    List<ReportData.ConcurrencyLevel> concurrencyByInstance,
    List<ContextBucket> mltVsContext,
    List<PromptBucket> prefillVsPrompt,
    List<BatchWindow> batchVsConcurrency,
    List<WarmupPhase> warmup,
    List<SlowRequest> slowest,
    List<NoticeCount> notices,
    List<NearNotice> noticesNearSlow,
    List<NetworkOutlier> networkOutliers,
    List<CdfPoint> ftlCdf,
    List<TimelinePoint> timeline,
    List<RequestRow> requests,
    List<ConfigRow> config,
    List<LoadRow> load,
    List<MatrixRow> matrix,
    GpuEvidence gpu) {
  /** One row of report/matrix: one cell of a loadgen --matrix sweep. */
  public record MatrixRow(
      String runId,
      String cell,
      @Nullable Integer promptTokens,
      @Nullable Integer maxTokens,
      @Nullable Integer concurrency,
      long requests,
      @Nullable Double ttftP50Ms,
      @Nullable Double ttftP95Ms,
      @Nullable Double itlP50Ms,
      @Nullable Double itlP95Ms,
      @Nullable Double tpotP50Ms,
      @Nullable Double tpotP95Ms,
      @Nullable Double windowS,
      @Nullable Double requestsPerS,
      @Nullable Double outputTokensPerS) {}

  /** The most request rows a report holds (the slowest); {@code sql} has all. */
  public static final int REQUEST_ROWS = 5000;

  /** One row of report/environment_config: a server's setting as its startup output gave it. */
  public record ConfigRow(
      String engine,
      String instance,
      String section,
      String key,
      String value,
      String sourcePath,
      long sourceLine,
      @Nullable Instant lastTs,
      long occurrences,
      long distinctValues) {}

  /**
   * One row of report/environment_load: the prompt and output lengths and concurrency of a run, and
   * the request rate a tool's aggregate file recorded for it (null when none).
   */
  public record LoadRow(
      String runId,
      long requests,
      long promptTokenRows,
      @Nullable Double promptP10,
      @Nullable Double promptP50,
      @Nullable Double promptP90,
      @Nullable Integer promptMax,
      long outputTokenRows,
      @Nullable Double outputP10,
      @Nullable Double outputP50,
      @Nullable Double outputP90,
      @Nullable Integer outputMax,
      @Nullable Integer concurrencyMin,
      @Nullable Integer concurrencyMax,
      long concurrencyRows,
      @Nullable Double requestRate) {}

  /** One row of report/run_overview. */
  public record RunOverview(
      String runId,
      String kind,
      Instant startedTs,
      String command,
      @Nullable String params,
      @Nullable String clientFormats,
      long files,
      long requests,
      long okRequests,
      long warmupRequests,
      long errorRequests,
      long attributedRequests,
      @Nullable String concurrencyLevels,
      @Nullable String engines,
      @Nullable String instances,
      @Nullable Instant firstStartTs,
      @Nullable Instant lastEndTs,
      @Nullable String vantage,
      long gatewaySplitRequests,
      long gatewayViewRequests,
      long e2eOnlyRequests,
      @Nullable Double clientGatewayP50Ms,
      @Nullable Double clientGatewayP95Ms,
      @Nullable Double gatewayEngineP50Ms,
      @Nullable Double gatewayEngineP95Ms) {}

  /** One row of report/environment_instances. */
  public record Instance(
      String engine,
      String instance,
      @Nullable String version,
      long files,
      long requestTimingRows,
      @Nullable String requestSources,
      long arrivals,
      long statsSnapshots,
      long batchSteps,
      long notices,
      long errorNotices,
      @Nullable Instant firstTs,
      @Nullable Instant lastTs) {}

  /** One row of report/environment_facts. */
  public record Fact(
      String engine,
      String instance,
      String kind,
      String message,
      @Nullable Instant firstTs,
      long times) {}

  /** One row of report/throughput. */
  public record Throughput(
      String groupBy,
      String runId,
      @Nullable Integer concurrency,
      long requests,
      @Nullable Double windowS,
      @Nullable Double requestsPerS,
      @Nullable Long outputTokens,
      @Nullable Double outputTokensPerS,
      @Nullable Long promptTokens,
      @Nullable Double promptTokensPerS) {}

  /** One row of queries/mlt_vs_context. */
  public record ContextBucket(
      String runId,
      @Nullable Integer concurrency,
      long bucketLo,
      long bucketHi,
      long requests,
      @Nullable Double promptP50,
      @Nullable Double mltP50Ms,
      @Nullable Double mltP95Ms,
      @Nullable Double tpotP50Ms,
      @Nullable Double tpotP95Ms,
      long seriesRequests,
      @Nullable Double promptP10,
      @Nullable Double promptP90,
      @Nullable Double mltSlopeMsPerKtoken,
      @Nullable Double mltInterceptMs,
      @Nullable Double mltR2,
      @Nullable Double mltRisePct,
      @Nullable Double tpotSlopeMsPerKtoken,
      boolean decodeBandwidthBound) {}

  /** One row of queries/prefill_vs_prompt. */
  public record PromptBucket(
      String runId,
      @Nullable Integer concurrency,
      long bucketLo,
      long bucketHi,
      long requests,
      @Nullable Double promptP50,
      @Nullable Double ftlP50Ms,
      @Nullable Double ftlP95Ms,
      @Nullable Double prefillP50Ms,
      @Nullable Double prefillP95Ms,
      long seriesRequests,
      @Nullable Double promptP10,
      @Nullable Double promptP90,
      @Nullable Double ftlSlopeMsPerKtoken,
      @Nullable Double ftlInterceptMs,
      @Nullable Double ftlR2,
      @Nullable Double ftlRisePct,
      @Nullable Double prefillSlopeMsPerKtoken,
      @Nullable Double prefillR2,
      @Nullable Double prefillShareOfFtl,
      boolean prefillBound) {}

  /** One row of queries/batch_vs_concurrency (one window per run and level). */
  public record BatchWindow(
      String runId,
      @Nullable Integer concurrency,
      @Nullable String instance,
      Instant windowStart,
      Instant windowEnd,
      long clientRequests,
      @Nullable Double clientInFlightMean,
      @Nullable Long clientInFlightMax,
      @Nullable String serverSource,
      long serverSamples,
      @Nullable Double serverBatchMean,
      @Nullable Double serverBatchP50,
      @Nullable Integer serverBatchMax,
      @Nullable Double serverWaitingMean,
      @Nullable Integer serverWaitingMax,
      @Nullable Boolean batchBelowConcurrency) {}

  /** One row of queries/warmup_effect. */
  public record WarmupPhase(
      String runId,
      String phase,
      long requests,
      @Nullable Double ftlP50Ms,
      @Nullable Double ftlP95Ms,
      @Nullable Double e2eP50Ms,
      @Nullable Double prefillP50Ms,
      @Nullable Double ftlP50VsSteadyPct,
      @Nullable Boolean slowerThanSteady) {}

  /** One row of queries/slowest_requests. */
  public record SlowRequest(
      String requestKey,
      String runId,
      @Nullable Integer concurrency,
      @Nullable String engine,
      @Nullable String instance,
      @Nullable Double clientTtftMs,
      @Nullable Double clientE2eMs,
      @Nullable Double clientQueueMs,
      @Nullable Double networkMs,
      @Nullable Double queueMs,
      @Nullable Double prefillMs,
      @Nullable Double decodeMs,
      @Nullable String dominant,
      @Nullable Integer outputTokens,
      String joinStatus,
      boolean included,
      @Nullable String exclusion,
      @Nullable Double mltMs,
      @Nullable Integer promptTokens,
      @Nullable Instant alignedStartTs,
      @Nullable Instant statsTs,
      @Nullable Long statsOffsetMs,
      @Nullable Integer running,
      @Nullable Integer waiting,
      @Nullable Double kvUsagePct,
      @Nullable Instant batchTs,
      @Nullable Long batchOffsetMs,
      @Nullable Integer batchSize,
      @Nullable Integer batchQueued) {}

  /** One row of report/notice_counts. */
  public record NoticeCount(
      String engine,
      String instance,
      String kind,
      long notices,
      @Nullable Instant firstTs,
      @Nullable Instant lastTs,
      String firstMessage) {}

  /** One row of queries/notices_near_slow. */
  public record NearNotice(
      long slowRank,
      String requestKey,
      String runId,
      String instance,
      @Nullable Double clientE2eMs,
      @Nullable String dominant,
      Instant requestStartTs,
      Instant requestEndTs,
      Instant noticeTs,
      long offsetMs,
      boolean duringRequest,
      String level,
      String kind,
      String message,
      String sourcePath,
      long sourceLine) {}

  /** One row of queries/network_outliers. */
  public record NetworkOutlier(
      String kind,
      String requestKey,
      String runId,
      @Nullable String instance,
      @Nullable Instant alignedStartTs,
      @Nullable Double clientTtftMs,
      @Nullable Double clientE2eMs,
      @Nullable Double networkMs,
      @Nullable Double networkTtftMs,
      @Nullable Double runNetworkP50Ms,
      @Nullable Double runNetworkMadMs,
      @Nullable Double robustZ,
      @Nullable Double clockOffsetMs,
      @Nullable String suspectReason) {}

  /** One row of report/ftl_cdf. */
  public record CdfPoint(
      String runId, @Nullable Integer concurrency, long requests, double fraction, double ftlMs) {}

  /** One row of report/instance_timeline. */
  public record TimelinePoint(
      String engine,
      String instance,
      long bucket,
      Instant bucketStartTs,
      Instant bucketEndTs,
      long samples,
      @Nullable Integer batchMax,
      @Nullable Double batchMean,
      @Nullable Integer queueMax,
      @Nullable Double kvMaxPct) {}

  /** One row of report/request_rows. */
  public record RequestRow(
      String runId,
      String requestKey,
      @Nullable Integer concurrency,
      @Nullable String instance,
      String status,
      String joinStatus,
      boolean included,
      @Nullable String exclusion,
      @Nullable String dominant,
      @Nullable Instant startTs,
      @Nullable Double clientTtftMs,
      @Nullable Double clientE2eMs,
      @Nullable Double mltMs,
      @Nullable Double tpotMs,
      @Nullable Double clientQueueMs,
      @Nullable Double networkMs,
      @Nullable Double queueMs,
      @Nullable Double prefillMs,
      @Nullable Double decodeMs,
      @Nullable Integer promptTokens,
      @Nullable Integer outputTokens) {}

  public ReportEvidence {
    requireNonNull(command, "command is null");
    runs = List.copyOf(runs);
    instances = List.copyOf(instances);
    facts = List.copyOf(facts);
    throughput = List.copyOf(throughput);
    concurrencyByInstance = List.copyOf(concurrencyByInstance);
    mltVsContext = List.copyOf(mltVsContext);
    prefillVsPrompt = List.copyOf(prefillVsPrompt);
    batchVsConcurrency = List.copyOf(batchVsConcurrency);
    warmup = List.copyOf(warmup);
    slowest = List.copyOf(slowest);
    notices = List.copyOf(notices);
    noticesNearSlow = List.copyOf(noticesNearSlow);
    networkOutliers = List.copyOf(networkOutliers);
    ftlCdf = List.copyOf(ftlCdf);
    timeline = List.copyOf(timeline);
    requests = List.copyOf(requests);
    config = List.copyOf(config);
    load = List.copyOf(load);
    matrix = List.copyOf(matrix);
    requireNonNull(gpu, "gpu is null");
  }

  /** Evidence without GPU telemetry or /metrics histograms (the shape before them). */
  public ReportEvidence(
      String command,
      List<RunOverview> runs,
      List<Instance> instances,
      List<Fact> facts,
      List<Throughput> throughput,
      List<ReportData.ConcurrencyLevel> concurrencyByInstance,
      List<ContextBucket> mltVsContext,
      List<PromptBucket> prefillVsPrompt,
      List<BatchWindow> batchVsConcurrency,
      List<WarmupPhase> warmup,
      List<SlowRequest> slowest,
      List<NoticeCount> notices,
      List<NearNotice> noticesNearSlow,
      List<NetworkOutlier> networkOutliers,
      List<CdfPoint> ftlCdf,
      List<TimelinePoint> timeline,
      List<RequestRow> requests,
      List<ConfigRow> config,
      List<LoadRow> load,
      List<MatrixRow> matrix) {
    this(
        command,
        runs,
        instances,
        facts,
        throughput,
        concurrencyByInstance,
        mltVsContext,
        prefillVsPrompt,
        batchVsConcurrency,
        warmup,
        slowest,
        notices,
        noticesNearSlow,
        networkOutliers,
        ftlCdf,
        timeline,
        requests,
        config,
        load,
        matrix,
        GpuEvidence.empty());
  }

  /** Evidence without matrix rows (the shape before loadgen --matrix). */
  public ReportEvidence(
      String command,
      List<RunOverview> runs,
      List<Instance> instances,
      List<Fact> facts,
      List<Throughput> throughput,
      List<ReportData.ConcurrencyLevel> concurrencyByInstance,
      List<ContextBucket> mltVsContext,
      List<PromptBucket> prefillVsPrompt,
      List<BatchWindow> batchVsConcurrency,
      List<WarmupPhase> warmup,
      List<SlowRequest> slowest,
      List<NoticeCount> notices,
      List<NearNotice> noticesNearSlow,
      List<NetworkOutlier> networkOutliers,
      List<CdfPoint> ftlCdf,
      List<TimelinePoint> timeline,
      List<RequestRow> requests,
      List<ConfigRow> config,
      List<LoadRow> load) {
    this(
        command,
        runs,
        instances,
        facts,
        throughput,
        concurrencyByInstance,
        mltVsContext,
        prefillVsPrompt,
        batchVsConcurrency,
        warmup,
        slowest,
        notices,
        noticesNearSlow,
        networkOutliers,
        ftlCdf,
        timeline,
        requests,
        config,
        load,
        List.of());
  }

  /** Evidence without the configuration and load rows (the shape before they existed). */
  public ReportEvidence(
      String command,
      List<RunOverview> runs,
      List<Instance> instances,
      List<Fact> facts,
      List<Throughput> throughput,
      List<ReportData.ConcurrencyLevel> concurrencyByInstance,
      List<ContextBucket> mltVsContext,
      List<PromptBucket> prefillVsPrompt,
      List<BatchWindow> batchVsConcurrency,
      List<WarmupPhase> warmup,
      List<SlowRequest> slowest,
      List<NoticeCount> notices,
      List<NearNotice> noticesNearSlow,
      List<NetworkOutlier> networkOutliers,
      List<CdfPoint> ftlCdf,
      List<TimelinePoint> timeline,
      List<RequestRow> requests) {
    this(
        command,
        runs,
        instances,
        facts,
        throughput,
        concurrencyByInstance,
        mltVsContext,
        prefillVsPrompt,
        batchVsConcurrency,
        warmup,
        slowest,
        notices,
        noticesNearSlow,
        networkOutliers,
        ftlCdf,
        timeline,
        requests,
        List.of(),
        List.of(),
        List.of());
  }

  /** No evidence: a report of its core sections only. */
  public static ReportEvidence empty() {
    return new ReportEvidence(
        "", List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
        List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
        List.of(), List.of(), List.of());
  }

  /** The client runs (kind clients), in load order. */
  public List<RunOverview> clientRuns() {
    return runs.stream().filter(run -> run.kind().equals("clients")).toList();
  }
}
