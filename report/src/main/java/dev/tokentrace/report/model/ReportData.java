package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.rows.ClockOffset;
import dev.tokentrace.store.rows.DataQuality;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.mapper.reflect.JdbiConstructor;
import org.jspecify.annotations.Nullable;

/**
 * The rows a report rests on, read once from the SQL of {@code sql/} (each nested record is one row
 * of the named file); the analysis draws its {@link Report} from them, so that every renderer shows
 * the same numbers. Durations in ms; shares as fractions; timestamps UTC. {@code clocks} are the
 * rows of queries/clock_offsets; {@code evidence} holds the root-cause queries and the appendix,
 * {@code baseline} the same metrics of another database ({@code --baseline}), {@code pd} the
 * prefill/decode rows (empty for a single-server run).
 *
 * <p>(Longer than the house's 200 lines: the row records with their compatibility constructors.)
 */
public record ReportData(
    String database,
    Instant generatedAt,
    Rules settings,
    List<Source> sources,
    List<LoadedFile> files,
    List<Metric> coreMetrics,
    List<Component> components,
    List<ConcurrencyLevel> concurrency,
    DataQuality quality,
    List<ClockOffset> clocks,
    ReportEvidence evidence,
    @Nullable Baseline baseline,
    PdSection pd) {
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

  /**
   * One row of queries/attribution_summary (component: a LatencyComponent id or total; runId and
   * concurrency set for the groupings that have them).
   */
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
      long dominantRequests,
      @Nullable String runId,
      @Nullable Integer concurrency) {
    @JdbiConstructor
    public Component {}

    /** The component's label ({@code total (client)} for the total). */
    public String label() {
      return component.equals("total") ? "total (client)" : ComponentKind.fromId(component).label();
    }

    /** A row without run and concurrency columns (reports of one grouping). */
    public Component(
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
        long dominantRequests) {
      this(
          groupBy,
          groupValue,
          component,
          requests,
          p50Ms,
          p90Ms,
          p95Ms,
          p99Ms,
          meanMs,
          share,
          dominantRequests,
          null,
          null);
    }
  }

  /**
   * One row of queries/concurrency_sensitivity: a concurrency level of one series (a run, or an
   * instance when group_by is instance).
   */
  public record ConcurrencyLevel(
      String groupBy,
      String groupValue,
      int concurrency,
      long requests,
      @Nullable Double ftlP50Ms,
      @Nullable Double ftlP90Ms,
      @Nullable Double ftlP95Ms,
      @Nullable Double mltP50Ms,
      @Nullable Double mltP95Ms,
      int baselineConcurrency,
      @Nullable Double ftlP50GrowthPct,
      @Nullable Double mltP50GrowthPct,
      @Nullable Boolean queueingBound,
      boolean ruleLevel,
      long levels,
      @Nullable Double mltP90Ms,
      @Nullable Double tpotP50Ms,
      @Nullable Double tpotP90Ms,
      @Nullable Double tpotP95Ms) {
    @JdbiConstructor
    public ConcurrencyLevel {
      requireNonNull(groupBy, "groupBy is null");
      requireNonNull(groupValue, "groupValue is null");
    }

    /** A level of a report's only run (the shape before levels were kept per run). */
    public ConcurrencyLevel(
        int concurrency,
        long requests,
        @Nullable Double ftlP50Ms,
        @Nullable Double ftlP95Ms,
        @Nullable Double mltP50Ms,
        @Nullable Double mltP95Ms,
        int baselineConcurrency,
        @Nullable Double ftlP50GrowthPct,
        @Nullable Boolean queueingBound) {
      this(
          "run",
          "",
          concurrency,
          requests,
          ftlP50Ms,
          null,
          ftlP95Ms,
          mltP50Ms,
          mltP95Ms,
          baselineConcurrency,
          ftlP50GrowthPct,
          null,
          queueingBound,
          false,
          0,
          null,
          null,
          null,
          null);
    }
  }

  /**
   * The same metrics read from another database attached read-only ({@code --baseline}), as its
   * last attribution stored them.
   */
  public record Baseline(
      String database,
      List<Metric> coreMetrics,
      List<Component> components,
      List<ReportEvidence.Throughput> throughput,
      DataQuality quality,
      List<ReportEvidence.ConfigRow> config) {
    public Baseline {
      requireNonNull(database, "database is null");
      coreMetrics = List.copyOf(coreMetrics);
      components = List.copyOf(components);
      throughput = List.copyOf(throughput);
      requireNonNull(quality, "quality is null");
      config = List.copyOf(config);
    }

    /** A baseline without configuration rows (a database from before server_config). */
    public Baseline(
        String database,
        List<Metric> coreMetrics,
        List<Component> components,
        List<ReportEvidence.Throughput> throughput,
        DataQuality quality) {
      this(database, coreMetrics, components, throughput, quality, List.of());
    }
  }

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
    requireNonNull(evidence, "evidence is null");
    requireNonNull(pd, "pd is null");
  }

  /** The report data of a run without prefill/decode disaggregation. */
  public ReportData(
      String database,
      Instant generatedAt,
      Rules settings,
      List<Source> sources,
      List<LoadedFile> files,
      List<Metric> coreMetrics,
      List<Component> components,
      List<ConcurrencyLevel> concurrency,
      DataQuality quality,
      List<ClockOffset> clocks,
      ReportEvidence evidence,
      @Nullable Baseline baseline) {
    this(
        database,
        generatedAt,
        settings,
        sources,
        files,
        coreMetrics,
        components,
        concurrency,
        quality,
        clocks,
        evidence,
        baseline,
        PdSection.empty());
  }

  /** The report data without root-cause evidence or baseline (the report's core sections). */
  public ReportData(
      String database,
      Instant generatedAt,
      Rules settings,
      List<Source> sources,
      List<LoadedFile> files,
      List<Metric> coreMetrics,
      List<Component> components,
      List<ConcurrencyLevel> concurrency,
      DataQuality quality,
      List<ClockOffset> clocks) {
    this(
        database,
        generatedAt,
        settings,
        sources,
        files,
        coreMetrics,
        components,
        concurrency,
        quality,
        clocks,
        ReportEvidence.empty(),
        null);
  }

  /** This data with a baseline to compare against. */
  public ReportData withBaseline(@Nullable Baseline value) {
    return new ReportData(
        database,
        generatedAt,
        settings,
        sources,
        files,
        coreMetrics,
        components,
        concurrency,
        quality,
        clocks,
        evidence,
        value,
        pd);
  }

  /** The component rows of one grouping ({@code all}, {@code run}, {@code concurrency}, ...). */
  public List<Component> components(String groupBy) {
    return components.stream().filter(row -> row.groupBy().equals(groupBy)).toList();
  }

  /** The overall row of one component id, if any request was attributed. */
  public Optional<Component> overall(String component) {
    return components("all").stream().filter(row -> row.component().equals(component)).findFirst();
  }

  /** A run's concurrency levels; a report of one unnamed series (no run ids) owns them all. */
  public List<ConcurrencyLevel> levels(String runId) {
    List<ConcurrencyLevel> own =
        concurrency.stream().filter(level -> level.groupValue().equals(runId)).toList();
    if (own.isEmpty() && concurrency.stream().allMatch(l -> l.groupValue().isEmpty())) {
      return concurrency;
    }
    return own;
  }

  /** The metric rows of one grouping. */
  public List<Metric> metrics(String groupBy) {
    return coreMetrics.stream().filter(row -> row.groupBy().equals(groupBy)).toList();
  }
}
