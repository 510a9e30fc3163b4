package dev.tokentrace.event;

import static java.util.Objects.requireNonNull;

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
