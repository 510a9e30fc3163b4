package dev.tokentrace.report.load;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.Rules;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.query.QueryRows;
import dev.tokentrace.store.rows.ClockOffset;
import dev.tokentrace.store.rows.DataQuality;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@link ReportData} from the attribution tables with the named SQL, in one handle, and turns
 * the attribution's own types into the model's.
 */
public final class ReportDataLoader {
  /** The seed's rule: FTL growing by more than this from concurrency 1 to 8 means queueing. */
  static final double FTL_GROWTH_THRESHOLD_PCT = 50.0;

  /** attribution/core_metrics' groupings in its order. */
  private static final List<String> CORE_METRICS_GROUPINGS = List.of("all", "run", "concurrency");

  /** queries/attribution_summary's components in its order, and in two halves. */
  private static final List<String> COMPONENT_ORDER =
      List.of("network", "client_queue", "queue", "prefill", "decode", "total");

  private static final List<String> SUMMARY_COMPONENT_HALVES =
      List.of("network,client_queue,queue", "prefill,decode,total");

  /** queries/attribution_summary's groupings in its order. */
  private static final List<String> SUMMARY_GROUPINGS =
      List.of("all", "run", "concurrency", "run_concurrency", "engine", "instance");

  private ReportDataLoader() {}

  public static ReportData load(
      Database database, Instant generatedAt, AttributionSettings settings) {
    return load(database, generatedAt, settings, "");
  }

  public static ReportData load(
      Database database, Instant generatedAt, AttributionSettings settings, String command) {
    return load(database, generatedAt, settings, command, null);
  }

  /** With the data-quality counts when already known (the attribution just computed them). */
  public static ReportData load(
      Database database,
      Instant generatedAt,
      AttributionSettings settings,
      String command,
      @Nullable DataQuality knownQuality) {
    return database
        .jdbi()
        .withHandle(
            handle -> {
              QueryRows.registerInstants(handle);
              return new ReportData(
                  database.name(),
                  generatedAt,
                  rules(settings),
                  QueryRows.list(handle, Queries.ENVIRONMENT_SOURCES, ReportData.Source.class),
                  QueryRows.list(handle, Queries.ENVIRONMENT_FILES, ReportData.LoadedFile.class),
                  coreMetrics(handle),
                  components(handle),
                  concurrency(handle, "run"),
                  knownQuality == null ? quality(handle) : knownQuality,
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
  public static List<ReportData.Metric> coreMetrics(Handle handle) {
    return perGrouping(
        handle, Queries.CORE_METRICS, CORE_METRICS_GROUPINGS, ReportData.Metric.class);
  }

  /**
   * Every grouping of queries/attribution_summary, in the file's order: one grouping and three
   * components per statement (six components of one grouping outgrew DuckDB's 1 GB memory_limit at
   * 10 M requests), merged back into group order with the components in theirs.
   */
  public static List<ReportData.Component> components(Handle handle) {
    return components(handle, SUMMARY_GROUPINGS);
  }

  /** As {@link #components(Handle)}, for some of the groupings, in the file's order. */
  static List<ReportData.Component> components(Handle handle, List<String> groupings) {
    List<ReportData.Component> rows = new ArrayList<>();
    for (String grouping : groupings) {
      List<ReportData.Component> grouped = new ArrayList<>();
      for (String components : SUMMARY_COMPONENT_HALVES) {
        grouped.addAll(
            QueryRows.list(
                handle,
                Queries.ATTRIBUTION_SUMMARY,
                ReportData.Component.class,
                Map.of("group_by", grouping, "components", components)));
      }
      rows.addAll(inGroupOrder(grouped));
    }
    return rows;
  }

  /** Stable: groups in the order they first appear, then the components in the file's order. */
  private static List<ReportData.Component> inGroupOrder(List<ReportData.Component> rows) {
    Map<@Nullable String, Integer> groups = new HashMap<>(); // HashMap: the 'all' group is null
    for (ReportData.Component row : rows) {
      groups.putIfAbsent(row.groupValue(), groups.size());
    }
    List<ReportData.Component> sorted = new ArrayList<>(rows);
    sorted.sort(
        Comparator.comparingInt((ReportData.Component row) -> groups.get(row.groupValue()))
            .thenComparingInt(row -> COMPONENT_ORDER.indexOf(row.component())));
    return sorted;
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

  /** The attribution's rules as the report prints them. */
  public static Rules rules(AttributionSettings settings) {
    return new Rules(
        settings.negativeToleranceMs(),
        settings.negativeTolerancePct(),
        settings.warmupFirstN(),
        settings.match().heuristic());
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
