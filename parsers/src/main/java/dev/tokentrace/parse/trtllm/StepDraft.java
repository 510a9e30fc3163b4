package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.Phase;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The fields of one {@link BatchStep} as the TensorRT-LLM sources fill them in, field by field;
 * {@link #toEvent} decides the phase. One per source record, not shared.
 */
final class StepDraft {
  @Nullable Instant ts;
  @Nullable String rank;
  @Nullable Long iteration;
  @Nullable Integer batchSize;
  @Nullable Integer newSeqs;
  @Nullable Integer newTokens;
  @Nullable Integer cachedTokens;
  @Nullable Integer queued;
  @Nullable Double tokenUsage;
  @Nullable Double stepMs;
  @Nullable Integer ctxRequests;
  @Nullable Integer genRequests;

  /**
   * Set when the source counts generation tokens but not generation requests (iteration log before
   * PR #3914): more than zero means decode work even though the request count is unknown.
   */
  @Nullable Integer genTokens;

  /**
   * Prefill when only context requests ran, decode when only generation requests ran, mixed when
   * both; null for an idle iteration (nothing scheduled), which is no batch.
   */
  @Nullable Phase phase() {
    boolean prefill = ctxRequests != null && ctxRequests > 0;
    boolean decode = genRequests != null ? genRequests > 0 : genTokens != null && genTokens > 0;
    if (prefill && decode) {
      return Phase.MIXED;
    }
    if (prefill) {
      return Phase.PREFILL;
    }
    return decode ? Phase.DECODE : null;
  }

  /** The event, or null for an idle iteration. */
  @Nullable BatchStep toEvent(String instance, SourcePosition source) {
    Phase phase = phase();
    if (phase == null) {
      return null;
    }
    Integer size = batchSize;
    if (size == null && ctxRequests != null && genRequests != null) {
      // sources without a scheduled count: the batch is its context plus generation requests
      // (capped as vLLM's IterationLine does: two huge counts must not overflow into a negative
      // size, which the event's constructor refuses with an exception)
      size = (int) Math.min(Integer.MAX_VALUE, (long) ctxRequests + genRequests);
    }
    return new BatchStep(
        Engine.TRTLLM,
        instance,
        ts,
        source,
        rank,
        iteration,
        phase,
        size,
        newSeqs,
        newTokens,
        cachedTokens,
        queued,
        tokenUsage,
        null,
        stepMs,
        false,
        ctxRequests,
        genRequests);
  }

  /** {@code used / max} as a fraction, or null when either is missing or max is zero. */
  static @Nullable Double fraction(@Nullable Integer used, @Nullable Integer max) {
    if (used == null || max == null || max == 0) {
      return null;
    }
    return (double) used / max;
  }
}
