package dev.tokentrace.correlate.report;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.ClockOffset;
import dev.tokentrace.correlate.attribution.DataQuality;
import dev.tokentrace.correlate.db.Database;
import dev.tokentrace.correlate.db.Queries;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/** Reads {@link ReportData} from the attribution tables with the named SQL, in one handle. */
final class ReportDataLoader {
  /** The seed's rule: FTL growing by more than this from concurrency 1 to 8 means queueing. */
  static final double FTL_GROWTH_THRESHOLD_PCT = 50.0;

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
                  QueryRows.list(handle, Queries.CORE_METRICS, ReportData.Metric.class),
                  components(handle),
                  concurrency(handle, "run"),
                  quality(handle),
                  QueryRows.list(handle, Queries.CLOCK_OFFSET_LIST, ClockOffset.class),
                  EvidenceLoader.load(handle, command),
                  null);
            });
  }

  /** Every grouping of queries/attribution_summary. */
  static List<ReportData.Component> components(Handle handle) {
    return QueryRows.list(handle, Queries.ATTRIBUTION_SUMMARY, ReportData.Component.class);
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
