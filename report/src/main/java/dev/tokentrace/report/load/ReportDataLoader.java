package dev.tokentrace.report.load;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.report.model.PdSection;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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

  private static final Logger log = LoggerFactory.getLogger(ReportDataLoader.class);

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
    return load(database, generatedAt, settings, command, knownQuality, null);
  }

  /**
   * As above; {@code storedRun}, when not null, is the attribution run that is current, whose
   * stored results ({@link StoredResults}) are read instead of computed where present.
   */
  public static ReportData load(
      Database database,
      Instant generatedAt,
      AttributionSettings settings,
      String command,
      @Nullable DataQuality knownQuality,
      @Nullable String storedRun) {
    return database
        .jdbi()
        .withHandle(
            handle -> {
              QueryRows.registerInstants(handle);
              StatementTimes.install(handle);
              StoredResults results =
                  storedRun == null ? StoredResults.none() : StoredResults.of(handle, storedRun);
              ReportData data =
                  new ReportData(
                      database.name(),
                      generatedAt,
                      rules(settings),
                      QueryRows.list(handle, Queries.ENVIRONMENT_SOURCES, ReportData.Source.class),
                      QueryRows.list(
                          handle, Queries.ENVIRONMENT_FILES, ReportData.LoadedFile.class),
                      coreMetrics(handle, results),
                      components(handle, results),
                      concurrency(handle, results, "run"),
                      knownQuality == null ? quality(handle) : knownQuality,
                      QueryRows.list(handle, Queries.CLOCK_OFFSET_LIST, ClockOffset.class),
                      EvidenceLoader.load(handle, command, results),
                      null,
                      pd(handle));
              if (storedRun != null) {
                if (results.read() == 0) {
                  log.info(
                      "report: no results stored with the attribution of {}: percentiles and"
                          + " evidence computed from its {} rows",
                      storedRun,
                      "request_attribution");
                } else {
                  log.info(
                      "report: {} query result(s) read from those stored with the attribution of"
                          + " {}, {} computed",
                      results.read(),
                      storedRun,
                      results.computed());
                }
              }
              return data;
            });
  }

  /**
   * Runs every query whose result {@link StoredResults} keeps, through {@code results}: the exact
   * percentiles and the evidence that scans every request (docs/design.md#stored-report-results).
   */
  static void costly(Handle handle, StoredResults results) {
    coreMetrics(handle, results);
    components(handle, results);
    concurrency(handle, results, "run");
    EvidenceLoader.costly(handle, results);
  }

  /**
   * Every grouping of attribution/core_metrics, in the file's order. One statement per grouping:
   * exact percentiles hold every value in memory, and all groupings at once outgrow DuckDB's
   * memory_limit at 10 M requests.
   */
  public static List<ReportData.Metric> coreMetrics(Handle handle) {
    return coreMetrics(handle, StoredResults.none());
  }

  static List<ReportData.Metric> coreMetrics(Handle handle, StoredResults results) {
    List<ReportData.Metric> rows = new ArrayList<>();
    Map<String, List<ReportData.Metric>> done = new LinkedHashMap<>();
    for (String grouping : CORE_METRICS_GROUPINGS) {
      Map<String, String> params = Map.of("group_by", grouping);
      List<String> earlier = List.copyOf(done.keySet());
      List<ReportData.Metric> grouped =
          results.list(
              Queries.CORE_METRICS,
              ReportData.Metric.class,
              params,
              () -> {
                // a grouping with the same groups as an earlier one: its rows relabelled
                String source =
                    earlier.isEmpty()
                        ? null
                        : results
                            .shared(handle)
                            .sameAs(SharedGroupings.Population.BLACK_BOX, grouping, earlier);
                return source == null
                    ? QueryRows.list(handle, Queries.CORE_METRICS, ReportData.Metric.class, params)
                    : results.shared(handle).metrics(source, grouping, done.get(source));
              });
      done.put(grouping, grouped);
      rows.addAll(grouped);
    }
    return rows;
  }

  /**
   * Every grouping of queries/attribution_summary, in the file's order: one grouping and three
   * components per statement (six components of one grouping outgrew DuckDB's 1 GB memory_limit at
   * 10 M requests), merged back into group order with the components in theirs.
   */
  public static List<ReportData.Component> components(Handle handle) {
    return components(handle, StoredResults.none(), SUMMARY_GROUPINGS);
  }

  static List<ReportData.Component> components(Handle handle, StoredResults results) {
    return components(handle, results, SUMMARY_GROUPINGS);
  }

  /** As {@link #components(Handle)}, for some of the groupings, in the file's order. */
  static List<ReportData.Component> components(Handle handle, List<String> groupings) {
    return components(handle, StoredResults.none(), groupings);
  }

  private static List<ReportData.Component> components(
      Handle handle, StoredResults results, List<String> groupings) {
    List<ReportData.Component> rows = new ArrayList<>();
    // grouping -> its rows per half of the components
    Map<String, List<List<ReportData.Component>>> done = new LinkedHashMap<>();
    for (String grouping : groupings) {
      List<String> earlier = List.copyOf(done.keySet());
      List<List<ReportData.Component>> halves = new ArrayList<>();
      for (String components : SUMMARY_COMPONENT_HALVES) {
        int half = halves.size();
        Map<String, String> params = Map.of("group_by", grouping, "components", components);
        halves.add(
            results.list(
                Queries.ATTRIBUTION_SUMMARY,
                ReportData.Component.class,
                params,
                () -> {
                  // a grouping with the same groups as an earlier one: its rows relabelled
                  String source =
                      earlier.isEmpty()
                          ? null
                          : results
                              .shared(handle)
                              .sameAs(SharedGroupings.Population.INCLUDED, grouping, earlier);
                  return source == null
                      ? QueryRows.list(
                          handle, Queries.ATTRIBUTION_SUMMARY, ReportData.Component.class, params)
                      : results
                          .shared(handle)
                          .components(source, grouping, done.get(source).get(half));
                }));
      }
      done.put(grouping, halves);
      List<ReportData.Component> grouped = new ArrayList<>();
      halves.forEach(grouped::addAll);
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

  /**
   * The prefill/decode rows: computed by every report, not stored with the attribution
   * (queries/pd_pairs reads kv_transfer, outside the attribution's input fingerprint; both are one
   * pass over the P/D columns; docs/design.md#stored-report-results).
   */
  static PdSection pd(Handle handle) {
    return new PdSection(
        QueryRows.list(handle, ReportQueries.PD_COMPONENTS, PdSection.Part.class),
        QueryRows.list(handle, ReportQueries.PD_PAIRS, PdSection.Pair.class));
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
  static List<ReportData.ConcurrencyLevel> concurrency(
      Handle handle, StoredResults results, String groupBy) {
    Map<String, String> params =
        Map.of("threshold_pct", Double.toString(FTL_GROWTH_THRESHOLD_PCT), "group_by", groupBy);
    return results.list(
        Queries.CONCURRENCY_SENSITIVITY,
        ReportData.ConcurrencyLevel.class,
        params,
        () ->
            // one server per run and one run per server: the per-run series relabelled
            groupBy.equals("instance") && results.shared(handle).instancesAreRuns()
                ? results.shared(handle).levelsByInstance(concurrency(handle, results, "run"))
                : QueryRows.list(
                    handle,
                    Queries.CONCURRENCY_SENSITIVITY,
                    ReportData.ConcurrencyLevel.class,
                    params));
  }
}
