package dev.tokentrace.store;

/** Names of the SQL files Java runs, for {@link SqlCatalog#get}; one constant per file. */
public final class Queries {
  /** The included attributed requests in seconds, for the exporter's histograms. */
  public static final String EXPORTER_ATTRIBUTED_REQUESTS = "exporter/attributed_requests";

  /** The newest engine snapshot per instance, for the exporter's gauges. */
  public static final String EXPORTER_ENGINE_STATE = "exporter/engine_state";

  /** Row counts and newest timestamps per instance, rejects per engine, client rows per run. */
  public static final String EXPORTER_PIPELINE_HEALTH = "exporter/pipeline_health";

  /** Recomputes {@code request_attribution} from client and server tables. */
  public static final String PER_REQUEST = "attribution/per_request";

  /** A fingerprint of the attribution's input tables, to tell whether it can be reused. */
  public static final String INPUTS = "attribution/inputs";

  /** Creates, empty, the temporary tables of one incremental attribution round. */
  public static final String INCREMENTAL_SCRATCH = "attribution/incremental_scratch";

  /** Per request key, a digest of its input rows (incremental attribution). */
  public static final String KEY_DIGESTS = "attribution/key_digests";

  /** The keys whose digest changed since the stored one (incremental attribution). */
  public static final String CHANGED_KEYS = "attribution/changed_keys";

  /** The runs whose clock offsets changed this round (incremental attribution). */
  public static final String OFFSET_RUNS = "attribution/offset_runs";

  /** The keys a round attributes again (incremental attribution). */
  public static final String REDO_KEYS = "attribution/redo_keys";

  /** Puts changed clock offsets on the rows not attributed again (incremental attribution). */
  public static final String REALIGN = "attribution/realign";

  /**
   * Creates the temporary per-key table {@code attribution_keys} that {@link #CLOCK_OFFSETS} and
   * {@link #PER_REQUEST} read (one aggregate over the request keys per transaction).
   */
  public static final String REQUEST_KEYS = "attribution/request_keys";

  /**
   * Creates the temporary table {@code pd_halves} of requests prefilled on one server and decoded
   * on another, which {@link #REQUEST_KEYS} and {@link #PER_REQUEST} read
   * (docs/formats/pd.md#attribution).
   */
  public static final String PD_HALVES = "attribution/pd_halves";

  /**
   * Creates the temporary table {@code client_timing} that shadows the stored one with the keys a
   * proxy access log maps client IDs to (docs/formats/pd.md#proxy-access-log).
   */
  public static final String PROXY_KEYS = "attribution/proxy_keys";

  /** Whether {@link #PROXY_KEYS} has anything to map (one BOOLEAN). */
  public static final String PROXY_KEYS_NEEDED = "attribution/proxy_keys_needed";

  /** Recomputes {@code clock_offsets} from requests paired by ID. */
  public static final String CLOCK_OFFSETS = "attribution/clock_offsets";

  /** Candidate server requests for client rows without a usable ID (--match heuristic). */
  public static final String HEURISTIC_CANDIDATES = "attribution/heuristic_candidates";

  /** Client sends and steady-clock server arrivals without ID pairs, for the time-series offset. */
  public static final String STEADY_CLOCK_SERIES = "attribution/steady_clock_series";

  /** Client-side FTL, MLT, E2E and server TPOT percentiles, overall and per concurrency. */
  public static final String CORE_METRICS = "attribution/core_metrics";

  /** Join, duplicate, suspect, warm-up and reject counts in one row. */
  public static final String DATA_QUALITY = "attribution/data_quality";

  /** Rows attributed from a gateway's view, split at one, or by the end-to-end view. */
  public static final String VANTAGE_COUNTS = "attribution/vantage_counts";

  /** The columns of {@code correlate --out attribution.csv}, one row per client request. */
  public static final String CSV_ROWS = "attribution/csv_rows";

  /** Engines, instances and the server sources they were read from. */
  public static final String ENVIRONMENT_SOURCES = "attribution/environment_sources";

  /** The files each run loaded, with sizes and hashes. */
  public static final String ENVIRONMENT_FILES = "attribution/environment_files";

  /**
   * Component percentiles, shares and dominant counts, overall and per
   * run/concurrency/engine/instance.
   */
  public static final String ATTRIBUTION_SUMMARY = "queries/attribution_summary";

  /** FTL and MLT per concurrency level, with the seed's > 50% FTL growth rule. */
  public static final String CONCURRENCY_SENSITIVITY = "queries/concurrency_sensitivity";

  /** Client-only, server-only and duplicate-key requests. */
  public static final String UNMATCHED_REQUESTS = "queries/unmatched_requests";

  /** The clock offset estimates with a hint per flag. */
  public static final String CLOCK_OFFSET_LIST = "queries/clock_offsets";

  /** Keys seen more than once on either side: retries, n > 1 children, repeated records. */
  public static final String RETRIED_REQUESTS = "queries/retried_requests";

  /** Each paired request against the engine_stats and batch_step snapshots before it. */
  public static final String REQUEST_SNAPSHOTS = "queries/request_snapshots";

  /** The N slowest attributed requests with their breakdown. */
  public static final String SLOWEST_REQUESTS = "queries/slowest_requests";

  /** What the file holds on each side of the join, when an attribution query returns no row. */
  public static final String EMPTY_RESULT = "diagnostics/empty_result";

  private Queries() {}
}
