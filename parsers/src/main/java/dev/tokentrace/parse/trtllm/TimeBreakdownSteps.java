package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Per-iteration batch context inside a request's {@code time_breakdown_metrics} ({@code
 * ctx_chunk_metrics} and {@code step_metrics} entries) → {@code batch_step}. Only entries written
 * with {@code TRTLLM_PERF_TIME_EVENTS_PATH} set carry the iteration's batch ({@code iter_counter,
 * iter_batch_size, num_ctx_requests, num_gen_requests, context_token_number, ...};
 * PerfMetricsManager, PR #16900, docs/formats/trtllm.md#perf-metrics). Every request of a batch
 * repeats the same iteration, so each (rank, iteration) is emitted once, remembered in a compact
 * bit set. {@code step_ms} is the batch-matched GPU time ({@code gpu_forward_time +
 * gpu_sample_time}, ms, CUDA events) when measured, else null. Not thread-safe.
 */
final class TimeBreakdownSteps {
  /** 64 longs = 4096 iterations per chunk. */
  private static final int CHUNK_BITS = 12;

  /**
   * At most 16384 chunks (8 MiB, 67 M iterations per rank); beyond that the memory is released and
   * a later duplicate of a very old iteration may be emitted again.
   */
  private static final int MAX_CHUNKS = 1 << 14;

  private final String instance;
  private final Map<Long, long[]> seen = new HashMap<>();

  TimeBreakdownSteps(String instance) {
    this.instance = instance;
  }

  /** Emits the batch steps of one {@code time_breakdown_metrics} object; returns how many. */
  int emit(
      @Nullable JsonNode breakdown,
      @Nullable Integer rank,
      SourcePosition source,
      ParseOutput sink) {
    if (breakdown == null) {
      return 0;
    }
    return emitList(breakdown.get("ctx_chunk_metrics"), rank, source, sink)
        + emitList(breakdown.get("step_metrics"), rank, source, sink);
  }

  private int emitList(
      @Nullable JsonNode entries, @Nullable Integer rank, SourcePosition source, ParseOutput sink) {
    if (entries == null || !entries.isArray()) {
      return 0;
    }
    int emitted = 0;
    for (JsonNode entry : entries) {
      if (!entry.isObject() || !entry.has("iter_counter")) {
        continue;
      }
      Long iteration = JsonFields.longCount(entry, "iter_counter");
      if (iteration == null || !firstTime(rank == null ? -1 : rank, iteration)) {
        continue;
      }
      BatchStep step = draft(entry, iteration, rank).toEvent(instance, source);
      if (step != null) {
        sink.event(step);
        emitted++;
      }
    }
    return emitted;
  }

  private static StepDraft draft(JsonNode entry, long iteration, @Nullable Integer rank) {
    StepDraft step = new StepDraft();
    step.rank = rank == null ? null : "RANK " + rank;
    step.iteration = iteration;
    Integer batch = JsonFields.count(entry, "iter_batch_size");
    step.batchSize = batch != null ? batch : JsonFields.count(entry, "num_scheduled");
    step.ctxRequests = JsonFields.count(entry, "num_ctx_requests");
    step.genRequests = JsonFields.count(entry, "num_gen_requests");
    step.newTokens = JsonFields.count(entry, "context_token_number");
    Double forward = JsonFields.nonNegative(entry, "gpu_forward_time");
    Double sample = JsonFields.nonNegative(entry, "gpu_sample_time");
    if (forward != null && forward > 0) {
      step.stepMs = forward + (sample == null ? 0 : sample);
    }
    return step;
  }

  private boolean firstTime(int rank, long iteration) {
    long chunkKey =
        ((long) (rank & 0xFFFF) << 48) | ((iteration >>> CHUNK_BITS) & 0xFFFF_FFFF_FFFFL);
    long[] bits = seen.get(chunkKey);
    if (bits == null) {
      if (seen.size() >= MAX_CHUNKS) {
        seen.clear();
      }
      bits = new long[1 << (CHUNK_BITS - 6)];
      seen.put(chunkKey, bits);
    }
    int bit = (int) (iteration & ((1 << CHUNK_BITS) - 1));
    long mask = 1L << (bit & 63);
    if ((bits[bit >>> 6] & mask) != 0) {
      return false;
    }
    bits[bit >>> 6] |= mask;
    return true;
  }
}
