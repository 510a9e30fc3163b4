package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.BIGINT;
import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What one of the server's own latency histograms ({@code /metrics}) gained between two scrapes:
 * the requests observed in the interval ending at {@code ts}, their sum, and quantiles estimated
 * from the buckets the way Prometheus' {@code histogram_quantile} does (linear within a bucket).
 * {@code component} names what the histogram measures ({@code queue}, {@code prefill}, {@code
 * decode}, {@code ttft}, {@code itl}, {@code tpot}, {@code e2e}); {@code metric} is the engine's
 * own name. {@code buckets} lists {@code upper_bound_s:count} of the interval, cumulative as in the
 * exposition (docs/formats/metrics.md#server_histogram).
 */
public record ServerHistogram(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String component,
    String metric,
    @Nullable Double intervalS,
    long count,
    @Nullable Double sumMs,
    @Nullable Double p50Ms,
    @Nullable Double p90Ms,
    @Nullable Double p99Ms,
    String buckets)
    implements EngineEvent {
  public static final String TYPE = "server_histogram";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<ServerHistogram> TABLE =
      new EventTable<>(
          TYPE,
          ServerHistogram.class,
          TableSchema.columns(ServerHistogram.class)
              .required("component", VARCHAR, ServerHistogram::component)
              .required("metric", VARCHAR, ServerHistogram::metric)
              .optional("interval_s", DOUBLE, ServerHistogram::intervalS)
              .required("count", BIGINT, ServerHistogram::count)
              .optional("sum_ms", DOUBLE, ServerHistogram::sumMs)
              .optional("p50_ms", DOUBLE, ServerHistogram::p50Ms)
              .optional("p90_ms", DOUBLE, ServerHistogram::p90Ms)
              .optional("p99_ms", DOUBLE, ServerHistogram::p99Ms)
              .required("buckets", VARCHAR, ServerHistogram::buckets)
              .list(),
          v ->
              new ServerHistogram(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.text(1),
                  v.float64(2),
                  requireNonNull(v.int64(3), "count"),
                  v.float64(4),
                  v.float64(5),
                  v.float64(6),
                  v.float64(7),
                  v.text(8)));

  public static final int MAX_BUCKETS_TEXT = 2048;

  public ServerHistogram {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(component, "component is null");
    requireNonNull(metric, "metric is null");
    requireNonNull(buckets, "buckets is null");
    EventChecks.notBlank("component", component);
    EventChecks.notBlank("metric", metric);
    EventChecks.nonNegativeFinite("intervalS", intervalS);
    EventChecks.nonNegative("count", count);
    EventChecks.nonNegativeFinite("sumMs", sumMs);
    EventChecks.nonNegativeFinite("p50Ms", p50Ms);
    EventChecks.nonNegativeFinite("p90Ms", p90Ms);
    EventChecks.nonNegativeFinite("p99Ms", p99Ms);
    metric = EventChecks.cap(metric, GpuSample.MAX_TEXT);
    buckets = EventChecks.cap(buckets, MAX_BUCKETS_TEXT);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
