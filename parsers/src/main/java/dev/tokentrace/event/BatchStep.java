package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.BIGINT;
import static dev.tokentrace.table.ColumnType.BOOLEAN;
import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
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

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<BatchStep> TABLE =
      new EventTable<>(
          TYPE,
          BatchStep.class,
          TableSchema.columns(BatchStep.class)
              .optional("rank", VARCHAR, BatchStep::rank)
              .optional("iteration", BIGINT, BatchStep::iteration)
              .required("phase", VARCHAR, e -> e.phase().id())
              .optional("batch_size", INTEGER, BatchStep::batchSize)
              .optional("new_seqs", INTEGER, BatchStep::newSeqs)
              .optional("new_tokens", INTEGER, BatchStep::newTokens)
              .optional("cached_tokens", INTEGER, BatchStep::cachedTokens)
              .optional("queued", INTEGER, BatchStep::queued)
              .optional("token_usage", DOUBLE, BatchStep::tokenUsage)
              .optional("throughput_tps", DOUBLE, BatchStep::throughputTps)
              .optional("step_ms", DOUBLE, BatchStep::stepMs)
              .required("step_ms_derived", BOOLEAN, BatchStep::stepMsDerived)
              .optional("ctx_requests", INTEGER, BatchStep::ctxRequests)
              .optional("gen_requests", INTEGER, BatchStep::genRequests)
              .list(),
          v ->
              new BatchStep(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.int64(1),
                  Phase.fromId(v.text(2)),
                  v.int32(3),
                  v.int32(4),
                  v.int32(5),
                  v.int32(6),
                  v.int32(7),
                  v.float64(8),
                  v.float64(9),
                  v.float64(10),
                  v.bool(11),
                  v.int32(12),
                  v.int32(13)));

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
