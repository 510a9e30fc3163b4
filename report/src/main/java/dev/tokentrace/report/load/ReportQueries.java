package dev.tokentrace.report.load;

/**
 * Names of the SQL files the report runs besides those of {@link dev.tokentrace.store.Queries}, for
 * {@link dev.tokentrace.store.SqlCatalog#get}; one constant per file.
 */
final class ReportQueries {
  /** Runs with what they loaded and how much was attributed. */
  static final String RUN_OVERVIEW = "report/run_overview";

  /** Engine, version, sources and time span per server instance. */
  static final String ENVIRONMENT_INSTANCES = "report/environment_instances";

  /** Startup and config notices per instance. */
  static final String ENVIRONMENT_FACTS = "report/environment_facts";

  /** Every configuration setting per instance as its startup output gave it. */
  static final String ENVIRONMENT_CONFIG = "report/environment_config";

  /** Whether the database has the server_config table (a baseline may predate it). */
  static final String HAS_SERVER_CONFIG = "report/has_server_config";

  /** Prompt and output lengths and concurrency per client run. */
  static final String ENVIRONMENT_LOAD = "report/environment_load";

  /** Requests and tokens per second per run and level. */
  static final String THROUGHPUT = "report/throughput";

  /** Per cell of a loadgen --matrix sweep: TTFT, ITL, TPOT, requests/s, output tokens/s. */
  static final String MATRIX = "report/matrix";

  /** FTL quantile points per run and level, for CDF charts. */
  static final String FTL_CDF = "report/ftl_cdf";

  /** Batch, queue and KV use per instance in bounded time slices. */
  static final String INSTANCE_TIMELINE = "report/instance_timeline";

  /** Every client request with its components, for the request table. */
  static final String REQUEST_ROWS = "report/request_rows";

  /** kv_transfer and decode-side queueing of the P/D requests (docs/formats/pd.md). */
  static final String PD_COMPONENTS = "report/pd_components";

  /** Client rows a P/D proxy's rewritten IDs kept from joining (docs/formats/pd.md). */
  static final String PD_UNJOINED = "report/pd_unjoined";

  /** KV transfer per prefill/decode pair, failed and expired transfers. */
  static final String PD_PAIRS = "queries/pd_pairs";

  /** Notices per instance and kind. */
  static final String NOTICE_COUNTS = "report/notice_counts";

  /** MLT and TPOT by prompt length with the decode-bandwidth rule. */
  static final String MLT_VS_CONTEXT = "queries/mlt_vs_context";

  /** FTL and prefill by prompt length with the prefill rule. */
  static final String PREFILL_VS_PROMPT = "queries/prefill_vs_prompt";

  /** Client concurrency against the server's batch size. */
  static final String BATCH_VS_CONCURRENCY = "queries/batch_vs_concurrency";

  /** Warm-up and first requests against the steady state. */
  static final String WARMUP_EFFECT = "queries/warmup_effect";

  /** Errors, preemptions, OOMs and aborts near the slowest requests. */
  static final String NOTICES_NEAR_SLOW = "queries/notices_near_slow";

  /** Network times far from their run's median, and suspect pairs. */
  static final String NETWORK_OUTLIERS = "queries/network_outliers";

  private ReportQueries() {}
}
