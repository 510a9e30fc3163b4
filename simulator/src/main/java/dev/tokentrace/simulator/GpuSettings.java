package dev.tokentrace.simulator;

/**
 * The GPU the simulated engine runs on: whether its telemetry is written (nvidia-smi query CSV,
 * dmon, pmon, compute apps, DCGM exporter text; docs/formats/gpu.md#simulated-telemetry), and an
 * optional co-tenant, another process that takes a share of the GPU during {@code [contentionAtS,
 * contentionAtS + contentionDurationS)} seconds after the run started ({@code contentionAtS < 0}:
 * none). Every engine step that starts inside that window lasts {@code slowdown} times longer, so
 * decode (and prefill) slow by that known factor while the co-tenant holds {@code coTenantMemMib}
 * of memory and keeps the GPU busy for {@code coTenantUtilPct} of each sample period. The engine's
 * own white-box series go with it: {@code metricsScrapeS > 0} saves its {@code /metrics} every that
 * many seconds ({@code metrics.prom}, docs/formats/metrics.md#simulated-scrapes).
 */
public record GpuSettings(
    boolean telemetry,
    double contentionAtS,
    double contentionDurationS,
    double slowdown,
    double coTenantMemMib,
    double coTenantUtilPct,
    double metricsScrapeS) {
  /** No telemetry, no co-tenant, no saved scrapes. */
  public static final GpuSettings NONE = new GpuSettings(false, -1, 30, 2.0, 12_000, 60, 0);

  public GpuSettings {
    Checks.nonNegative("contentionDurationS", contentionDurationS);
    Checks.check(Double.isFinite(slowdown) && slowdown >= 1, "slowdown must be >= 1: " + slowdown);
    Checks.nonNegative("coTenantMemMib", coTenantMemMib);
    Checks.check(
        coTenantUtilPct >= 0 && coTenantUtilPct <= 100,
        "coTenantUtilPct must be in [0, 100]: " + coTenantUtilPct);
    Checks.nonNegative("metricsScrapeS", metricsScrapeS);
  }

  /** A co-tenant is simulated. */
  public boolean contention() {
    return contentionAtS >= 0 && contentionDurationS > 0;
  }

  /** Model time the co-tenant arrives (Long.MAX_VALUE without one). */
  public long contentionFromUs() {
    return contention() ? Math.round(contentionAtS * 1_000_000) : Long.MAX_VALUE;
  }

  /** Model time the co-tenant leaves (Long.MAX_VALUE without one). */
  public long contentionToUs() {
    return contention()
        ? Math.round((contentionAtS + contentionDurationS) * 1_000_000)
        : Long.MAX_VALUE;
  }

  /** The co-tenant holds the GPU at {@code timeUs}. */
  public boolean contended(long timeUs) {
    return timeUs >= contentionFromUs() && timeUs < contentionToUs();
  }
}
