package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A periodic server-wide snapshot (vLLM stats line, TensorRT-LLM iteration stats totals): interval
 * throughputs and the scheduler's queue lengths at log time. {@code rank} names the engine or rank
 * the line is about when the server runs several (vLLM {@code Engine 001}, SGLang {@code DP1 TP0}).
 */
public record EngineStats(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    @Nullable String rank,
    @Nullable Double intervalS,
    @Nullable Double promptTps,
    @Nullable Double genTps,
    @Nullable Integer running,
    @Nullable Integer waiting,
    @Nullable Integer swapped,
    @Nullable Double kvUsagePct,
    @Nullable Double prefixHitPct,
    @Nullable Integer preemptions)
    implements EngineEvent {
  public static final String TYPE = "engine_stats";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<EngineStats> TABLE =
      new EventTable<>(
          TYPE,
          EngineStats.class,
          TableSchema.columns(EngineStats.class)
              .optional("rank", VARCHAR, EngineStats::rank)
              .optional("interval_s", DOUBLE, EngineStats::intervalS)
              .optional("prompt_tps", DOUBLE, EngineStats::promptTps)
              .optional("gen_tps", DOUBLE, EngineStats::genTps)
              .optional("running", INTEGER, EngineStats::running)
              .optional("waiting", INTEGER, EngineStats::waiting)
              .optional("swapped", INTEGER, EngineStats::swapped)
              .optional("kv_usage_pct", DOUBLE, EngineStats::kvUsagePct)
              .optional("prefix_hit_pct", DOUBLE, EngineStats::prefixHitPct)
              .optional("preemptions", INTEGER, EngineStats::preemptions)
              .list(),
          v ->
              new EngineStats(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.float64(1),
                  v.float64(2),
                  v.float64(3),
                  v.int32(4),
                  v.int32(5),
                  v.int32(6),
                  v.float64(7),
                  v.float64(8),
                  v.int32(9)));

  public EngineStats {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    EventChecks.nonNegativeFinite("intervalS", intervalS);
    EventChecks.nonNegativeFinite("promptTps", promptTps);
    EventChecks.nonNegativeFinite("genTps", genTps);
    EventChecks.nonNegative("running", running);
    EventChecks.nonNegative("waiting", waiting);
    EventChecks.nonNegative("swapped", swapped);
    EventChecks.nonNegativeFinite("kvUsagePct", kvUsagePct);
    EventChecks.finite("prefixHitPct", prefixHitPct);
    EventChecks.nonNegative("preemptions", preemptions);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
