package dev.tokentrace.event;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One scheduler step or batch (SGLang {@code Prefill batch}/{@code Decode batch}, TensorRT-LLM
 * iteration log and stats, vLLM {@code Iteration(i)}): the real batch size the server ran, which
 * the client's concurrency is not. {@code stepMsDerived} is true when the step time was computed
 * from consecutive log lines rather than logged.
 */
public record BatchStep(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    @Nullable String rank,
    @Nullable Long iteration,
    Phase phase,
    @Nullable Integer batchSize,
    @Nullable Integer newSeqs,
    @Nullable Integer newTokens,
    @Nullable Integer cachedTokens,
    @Nullable Integer queued,
    @Nullable Double tokenUsage,
    @Nullable Double throughputTps,
    @Nullable Double stepMs,
    boolean stepMsDerived,
    @Nullable Integer ctxRequests,
    @Nullable Integer genRequests)
    implements EngineEvent {
  public static final String TYPE = "batch_step";

  public BatchStep {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(phase, "phase is null");
    EventChecks.nonNegative("iteration", iteration);
    EventChecks.nonNegative("batchSize", batchSize);
    EventChecks.nonNegative("newSeqs", newSeqs);
    EventChecks.nonNegative("newTokens", newTokens);
    EventChecks.nonNegative("cachedTokens", cachedTokens);
    EventChecks.nonNegative("queued", queued);
    EventChecks.nonNegativeFinite("tokenUsage", tokenUsage);
    EventChecks.nonNegativeFinite("throughputTps", throughputTps);
    EventChecks.nonNegativeFinite("stepMs", stepMs);
    EventChecks.nonNegative("ctxRequests", ctxRequests);
    EventChecks.nonNegative("genRequests", genRequests);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
