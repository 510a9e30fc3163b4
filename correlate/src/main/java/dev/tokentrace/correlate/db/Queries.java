package dev.tokentrace.correlate.db;

/** Names of the SQL files Java runs, for {@link SqlCatalog#get}; one constant per file. */
public final class Queries {
  /** Recomputes {@code request_attribution} from client and server tables. */
  public static final String PER_REQUEST = "attribution/per_request";

  /** Client-side FTL, MLT, E2E and server TPOT percentiles, overall and per concurrency. */
  public static final String CORE_METRICS = "attribution/core_metrics";

  /** Join, duplicate, suspect, warm-up and reject counts in one row. */
  public static final String DATA_QUALITY = "attribution/data_quality";

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

  /** The N slowest attributed requests with their breakdown. */
  public static final String SLOWEST_REQUESTS = "queries/slowest_requests";

  private Queries() {}
}
