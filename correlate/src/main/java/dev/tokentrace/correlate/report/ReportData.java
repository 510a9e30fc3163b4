package dev.tokentrace.correlate.report;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.ClockOffset;
import dev.tokentrace.correlate.attribution.DataQuality;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Everything a report shows, gathered once by {@link ReportService} from the SQL of {@code sql/}
 * (each nested record is one row of the named file) so that every {@link ReportWriter} renders the
 * same numbers. Durations in ms; shares as fractions; timestamps UTC. {@code clocks} are the rows
 * of queries/clock_offsets.
 */
public record ReportData(
    String database,
    Instant generatedAt,
    AttributionSettings settings,
    List<Source> sources,
    List<LoadedFile> files,
    List<Metric> coreMetrics,
    List<Component> components,
    List<ConcurrencyLevel> concurrency,
    DataQuality quality,
    List<ClockOffset> clocks) {
  /** One row of attribution/environment_sources. */
  public record Source(
      String engine,
      String instance,
      String sourceTable,
      String sourceKind,
      long events,
      long files,
      @Nullable Instant firstTs,
      @Nullable Instant lastTs) {}

  /** One row of attribution/environment_files. */
  public record LoadedFile(
      String runId,
      String runKind,
      Instant startedTs,
      String command,
      String path,
      String fileKind,
      @Nullable String engine,
      long bytes,
      String sha256) {}

  /** One row of attribution/core_metrics (metric: ftl, mlt, tpot, e2e). */
  public record Metric(
      String groupBy,
      @Nullable String groupValue,
      String metric,
      long requests,
      @Nullable Double p50Ms,
      @Nullable Double p90Ms,
      @Nullable Double p95Ms,
      @Nullable Double p99Ms,
      @Nullable Double meanMs) {}

  /** One row of queries/attribution_summary (component: a LatencyComponent id or total). */
  public record Component(
      String groupBy,
      @Nullable String groupValue,
      String component,
      long requests,
      @Nullable Double p50Ms,
      @Nullable Double p90Ms,
      @Nullable Double p95Ms,
      @Nullable Double p99Ms,
      @Nullable Double meanMs,
      @Nullable Double share,
      long dominantRequests) {}

  /** One row of queries/concurrency_sensitivity. */
  public record ConcurrencyLevel(
      int concurrency,
      long requests,
      @Nullable Double ftlP50Ms,
      @Nullable Double ftlP95Ms,
      @Nullable Double mltP50Ms,
      @Nullable Double mltP95Ms,
      int baselineConcurrency,
      @Nullable Double ftlP50GrowthPct,
      @Nullable Boolean queueingBound) {}

  public ReportData {
    requireNonNull(database, "database is null");
    requireNonNull(generatedAt, "generatedAt is null");
    requireNonNull(settings, "settings is null");
    sources = List.copyOf(sources);
    files = List.copyOf(files);
    coreMetrics = List.copyOf(coreMetrics);
    components = List.copyOf(components);
    concurrency = List.copyOf(concurrency);
    requireNonNull(quality, "quality is null");
    clocks = List.copyOf(clocks);
  }

  /** The component rows of one grouping ({@code all}, {@code run}, {@code concurrency}, ...). */
  public List<Component> components(String groupBy) {
    return components.stream().filter(row -> row.groupBy().equals(groupBy)).toList();
  }

  /** The overall row of one component id, if any request was attributed. */
  public Optional<Component> overall(String component) {
    return components("all").stream().filter(row -> row.component().equals(component)).findFirst();
  }

  /** The metric rows of one grouping. */
  public List<Metric> metrics(String groupBy) {
    return coreMetrics.stream().filter(row -> row.groupBy().equals(groupBy)).toList();
  }
}
