package dev.tokentrace.correlate.report;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.ClockOffset;
import dev.tokentrace.correlate.attribution.DataQuality;
import dev.tokentrace.correlate.db.Database;
import dev.tokentrace.correlate.db.Queries;
import dev.tokentrace.correlate.db.SqlCatalog;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.reflect.ConstructorMapper;
import org.jspecify.annotations.Nullable;

/** Reads {@link ReportData} from the attribution tables with the named SQL, in one handle. */
final class ReportDataLoader {
  /** The seed's rule: FTL growing by more than this from concurrency 1 to 8 means queueing. */
  static final double FTL_GROWTH_THRESHOLD_PCT = 50.0;

  private ReportDataLoader() {}

  static ReportData load(Database database, Instant generatedAt, AttributionSettings settings) {
    return database
        .jdbi()
        .withHandle(
            handle -> {
              handle.registerColumnMapper(
                  Instant.class,
                  (result, column, context) -> utc(result.getObject(column, LocalDateTime.class)));
              return new ReportData(
                  database.name(),
                  generatedAt,
                  settings,
                  list(handle, Queries.ENVIRONMENT_SOURCES, ReportData.Source.class),
                  list(handle, Queries.ENVIRONMENT_FILES, ReportData.LoadedFile.class),
                  list(handle, Queries.CORE_METRICS, ReportData.Metric.class),
                  components(handle),
                  concurrency(handle),
                  handle
                      .createQuery(SqlCatalog.get(Queries.DATA_QUALITY))
                      .map(ConstructorMapper.of(DataQuality.class))
                      .one(),
                  list(handle, Queries.CLOCK_OFFSET_LIST, ClockOffset.class));
            });
  }

  private static <T> List<T> list(Handle handle, String query, Class<T> type) {
    return handle.createQuery(SqlCatalog.get(query)).map(ConstructorMapper.of(type)).list();
  }

  private static List<ReportData.Component> components(Handle handle) {
    return handle
        .createQuery(SqlCatalog.get(Queries.ATTRIBUTION_SUMMARY))
        .bindNull("group_by", Types.VARCHAR)
        .map(ConstructorMapper.of(ReportData.Component.class))
        .list();
  }

  private static List<ReportData.ConcurrencyLevel> concurrency(Handle handle) {
    return handle
        .createQuery(SqlCatalog.get(Queries.CONCURRENCY_SENSITIVITY))
        .bind("threshold_pct", FTL_GROWTH_THRESHOLD_PCT)
        .map(ConstructorMapper.of(ReportData.ConcurrencyLevel.class))
        .list();
  }

  private static @Nullable Instant utc(@Nullable LocalDateTime value) {
    return value == null ? null : value.toInstant(ZoneOffset.UTC);
  }
}
