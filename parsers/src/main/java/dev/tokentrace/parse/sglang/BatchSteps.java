package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.Phase;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.jspecify.annotations.Nullable;

/**
 * Builds {@code batch_step} events from a parsed {@link BatchLine}
 * (docs/formats/sglang.md#batch-line-fields): {@code batch_size} = {@code #running-req} (for a
 * mixed-chunk prefill the running requests merged into it), {@code new_seqs} = {@code #new-seq},
 * {@code new_tokens} = {@code #new-token}, {@code cached_tokens} = {@code #cached-token}, {@code
 * queued} = {@code #queue-req}, {@code token_usage} = {@code token usage} (fraction 0–1), {@code
 * throughput_tps} = {@code gen throughput} (decode) or {@code input throughput} (prefill), {@code
 * iteration} = the {@code [N]} header counter, and for decode lines the {@link DecodeStepTimer
 * derived step time}. Stateless.
 */
final class BatchSteps {
  private BatchSteps() {}

  static BatchStep of(BatchLine line, String instance, LineStamp stamp, DecodeStepTimer timer) {
    Instant ts = stamp.ts();
    Double stepMs =
        line.phase == Phase.DECODE ? timer.next(stamp.rank(), ts, stamp.millisPrecise()) : null;
    return new BatchStep(
        Engine.SGLANG,
        instance,
        // events carry milliseconds (the codec's precision); the timer used the full value
        ts == null ? null : ts.truncatedTo(ChronoUnit.MILLIS),
        stamp.position(),
        stamp.rank(),
        line.iteration < 0 ? null : line.iteration,
        line.phase,
        count(line.running),
        count(line.newSeqs),
        count(line.newTokens),
        count(line.cachedTokens),
        count(line.queued),
        decimal(line.tokenUsage),
        decimal(line.throughput),
        stepMs,
        stepMs != null,
        null,
        null);
  }

  private static @Nullable Integer count(int value) {
    return value < 0 ? null : value;
  }

  private static @Nullable Double decimal(double value) {
    return Double.isNaN(value) ? null : value;
  }
}
