package dev.tokentrace.correlate.report;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.ClockOffset;
import dev.tokentrace.correlate.attribution.DataQuality;
import dev.tokentrace.correlate.db.Database;
import dev.tokentrace.correlate.db.Queries;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/** Reads {@link ReportData} from the attribution tables with the named SQL, in one handle. */
final class ReportDataLoader {
  /** The seed's rule: FTL growing by more than this from concurrency 1 to 8 means queueing. */
  static final double FTL_GROWTH_THRESHOLD_PCT = 50.0;

  /** attribution/core_metrics' groupings in its order. */
  private static final List<String> CORE_METRICS_GROUPINGS = List.of("all", "run", "concurrency");

  /** queries/attribution_summary's groupings in its order. */
  private static final List<String> SUMMARY_GROUPINGS =
      List.of("all", "run", "concurrency", "run_concurrency", "engine", "instance");

  private ReportDataLoader() {}

  static ReportData load(Database database, Instant generatedAt, AttributionSettings settings) {
    return load(database, generatedAt, settings, "");
  }

  static ReportData load(
      Database database, Instant generatedAt, AttributionSettings settings, String command) {
    return database
        .jdbi()
        .withHandle(
            handle -> {
              QueryRows.registerInstants(handle);
              return new ReportData(
                  database.name(),
                  generatedAt,
                  settings,
                  QueryRows.list(handle, Queries.ENVIRONMENT_SOURCES, ReportData.Source.class),
                  QueryRows.list(handle, Queries.ENVIRONMENT_FILES, ReportData.LoadedFile.class),
                  coreMetrics(handle),
                  components(handle),
                  concurrency(handle, "run"),
                  quality(handle),
                  QueryRows.list(handle, Queries.CLOCK_OFFSET_LIST, ClockOffset.class),
                  EvidenceLoader.load(handle, command),
                  null);
            });
  }

  /**
   * Every grouping of attribution/core_metrics, in the file's order. One statement per grouping:
   * exact percentiles hold every value in memory, and all groupings at once outgrow DuckDB's
   * memory_limit at 10 M requests.
   */
  static List<ReportData.Metric> coreMetrics(Handle handle) {
    return perGrouping(
        handle, Queries.CORE_METRICS, CORE_METRICS_GROUPINGS, ReportData.Metric.class);
  }

  /** Every grouping of queries/attribution_summary, in the file's order, one at a time. */
  static List<ReportData.Component> components(Handle handle) {
    return perGrouping(
        handle, Queries.ATTRIBUTION_SUMMARY, SUMMARY_GROUPINGS, ReportData.Component.class);
  }

  private static <T> List<T> perGrouping(
      Handle handle, String query, List<String> groupings, Class<T> type) {
    List<T> rows = new ArrayList<>();
    for (String grouping : groupings) {
      rows.addAll(QueryRows.list(handle, query, type, Map.of("group_by", grouping)));
    }
    return rows;
  }

  static DataQuality quality(Handle handle) {
    return QueryRows.one(handle, Queries.DATA_QUALITY, DataQuality.class);
  }

  /** queries/concurrency_sensitivity with the seed's threshold, per run or per instance. */
  static List<ReportData.ConcurrencyLevel> concurrency(Handle handle, String groupBy) {
    return QueryRows.list(
        handle,
        Queries.CONCURRENCY_SENSITIVITY,
        ReportData.ConcurrencyLevel.class,
        Map.of("threshold_pct", Double.toString(FTL_GROWTH_THRESHOLD_PCT), "group_by", groupBy));
  }
}
