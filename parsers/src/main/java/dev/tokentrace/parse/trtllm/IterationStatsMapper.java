package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Timestamps;
import dev.tokentrace.parse.trtllm.JsonFields.Record;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One {@code IterationStats} object as {@code to_json_str} and the LLM API's {@code
 * _stats_serializer} write it (the {@code /metrics} array,
 * docs/formats/trtllm.md#iteration-stats-json, docs/formats/trtllm.md#metrics-endpoint; C++ key set
 * of {@code jsonSerialization.cpp @ 092229b}, PyTorch additions, 2026 additions of PR #13199 and
 * #14127) → one {@code batch_step} with the iteration's composition (skipped when nothing was
 * scheduled) and one {@code engine_stats} with the queue and KV snapshot.
 *
 * <p>Unit traps (docs/formats/trtllm.md#iteration-stats-json): {@code iterLatencyMS} of the PyTorch
 * backend spans about two loop iterations under the overlap scheduler (the default), so it is used
 * as the step time only when the record says {@code schedulerMode: "non_overlap"} or comes from the
 * C++ backend; 2026 records give {@code hostStepTimeMS}, the clean single-loop time, which wins.
 * {@code newActiveRequestsQueueLatencyMS} is a sum over the iteration's new requests in ms (C++)
 * but seconds and possibly cumulative in PyTorch; no event field holds a per-iteration queue wait,
 * so it is not read at all rather than read wrong. {@code cacheHitRate} is cumulative.
 */
final class IterationStatsMapper {
  /**
   * Every top-level key {@link #accepts} and {@link #map} read: what a {@link SparseTree} of a
   * record keeps. A key read here but missing from this set would read as absent
   * (JsonRecordsSparseTreeTest compares both ways of reading on mutated records).
   */
  static final Set<String> KEYS =
      Set.of(
          "iter",
          "iterLatencyMS",
          "inflightBatchingStats",
          "staticBatchingStats",
          "kvCacheStats",
          "numActiveRequests",
          "timestamp",
          "rank",
          "numNewActiveRequests",
          "numQueuedRequests",
          "hostStepTimeMS",
          "schedulerMode",
          "requestStats",
          "attentionDpRank",
          "maxBatchSizeStatic",
          "cpuMemUsage",
          "pinnedMemUsage");

  /** The keys read in each nested object. */
  static final Map<String, Set<String>> CHILD_KEYS =
      Map.of(
          "inflightBatchingStats",
          Set.of(
              "numScheduledRequests",
              "numContextRequests",
              "numGenRequests",
              "numCtxTokens",
              "numCtxKvTokens",
              "numPausedRequests"),
          "staticBatchingStats",
          Set.of("numScheduledRequests", "numContextRequests", "numCtxTokens", "numGenTokens"),
          "kvCacheStats",
          Set.of("usedNumBlocks", "maxNumBlocks", "cacheHitRate"));

  private final String instance;
  private final Timestamps.Local times;

  IterationStatsMapper(String instance, Timestamps.Local times) {
    this.instance = instance;
    this.times = times;
  }

  static boolean accepts(Record node) {
    return node.has("iter")
        && (node.has("iterLatencyMS")
            || node.has("inflightBatchingStats")
            || node.has("staticBatchingStats")
            || node.has("kvCacheStats")
            || node.has("numActiveRequests"));
  }

  void map(Record stats, SourcePosition source, ParseOutput sink) {
    StepDraft step = new StepDraft();
    step.ts = timestamp(stats);
    step.iteration = JsonFields.longCount(stats, "iter");
    if (step.iteration == null) {
      throw new JsonFields.BadValue("iter");
    }
    Integer rank = JsonFields.count(stats, "rank");
    step.rank = rank == null ? null : "RANK " + rank;
    Record inflight = stats.object("inflightBatchingStats");
    Record statics = stats.object("staticBatchingStats");
    Record kv = stats.object("kvCacheStats");
    if (inflight != null) {
      step.batchSize = JsonFields.count(inflight, "numScheduledRequests");
      step.ctxRequests = JsonFields.count(inflight, "numContextRequests");
      step.genRequests = JsonFields.count(inflight, "numGenRequests");
      step.newTokens = JsonFields.count(inflight, "numCtxTokens");
      // 2026 (PR #13199): prefix-cache and previously chunked tokens read by context requests
      step.cachedTokens = JsonFields.count(inflight, "numCtxKvTokens");
    } else if (statics != null) {
      step.batchSize = JsonFields.count(statics, "numScheduledRequests");
      step.ctxRequests = JsonFields.count(statics, "numContextRequests");
      step.newTokens = JsonFields.count(statics, "numCtxTokens");
      step.genTokens = JsonFields.count(statics, "numGenTokens");
    }
    step.newSeqs = JsonFields.count(stats, "numNewActiveRequests");
    step.queued = JsonFields.count(stats, "numQueuedRequests");
    step.tokenUsage =
        kv == null
            ? null
            : StepDraft.fraction(
                JsonFields.count(kv, "usedNumBlocks"), JsonFields.count(kv, "maxNumBlocks"));
    step.stepMs = stepMs(stats);
    EngineStats snapshot = snapshot(stats, step, inflight, kv, source);
    BatchStep event = step.toEvent(instance, source);
    if (event != null) {
      sink.event(event);
    }
    sink.event(snapshot);
  }

  private EngineStats snapshot(
      Record stats,
      StepDraft step,
      @Nullable Record inflight,
      @Nullable Record kv,
      SourcePosition source) {
    Double hitRate = kv == null ? null : JsonFields.nonNegative(kv, "cacheHitRate");
    return new EngineStats(
        Engine.TRTLLM,
        instance,
        step.ts,
        source,
        step.rank,
        null,
        null,
        null,
        JsonFields.count(stats, "numActiveRequests"),
        step.queued,
        null,
        step.tokenUsage == null ? null : step.tokenUsage * 100,
        hitRate == null ? null : hitRate * 100,
        inflight == null ? null : JsonFields.count(inflight, "numPausedRequests"));
  }

  private @Nullable Instant timestamp(Record stats) {
    String text = JsonFields.text(stats, "timestamp");
    if (text == null) {
      return null;
    }
    Instant ts = times.trtllmStats(text);
    if (ts == null) {
      throw new JsonFields.BadValue("timestamp");
    }
    return ts;
  }

  private static @Nullable Double stepMs(Record stats) {
    Double host = JsonFields.nonNegative(stats, "hostStepTimeMS");
    if (host != null) {
      return positive(host);
    }
    Double latency = JsonFields.nonNegative(stats, "iterLatencyMS");
    String mode = JsonFields.text(stats, "schedulerMode");
    if (mode != null) {
      return mode.equals("non_overlap") ? positive(latency) : null;
    }
    return isPyTorch(stats) ? null : positive(latency);
  }

  /** A step of 0 ms is a placeholder (C++ iteration 0 logs 0.0), not a measurement. */
  private static @Nullable Double positive(@Nullable Double value) {
    return value == null || value <= 0 ? null : value;
  }

  /**
   * PyTorch-backend records (before 2026's {@code schedulerMode}) have {@code requestStats} or
   * {@code attentionDpRank}, or leave the C++-only capacities and CPU/pinned memory at 0
   * (docs/formats/trtllm.md#iteration-stats-json); the overlap scheduler is their default, so their
   * {@code iterLatencyMS} is not a step time.
   */
  static boolean isPyTorch(Record stats) {
    if (stats.has("requestStats") || stats.has("attentionDpRank")) {
      return true;
    }
    return zeroOrAbsent(stats, "maxBatchSizeStatic")
        && zeroOrAbsent(stats, "cpuMemUsage")
        && zeroOrAbsent(stats, "pinnedMemUsage");
  }

  private static boolean zeroOrAbsent(Record stats, String key) {
    JsonNode value = stats.get(key);
    return value == null || value.isNull() || (value.isNumber() && value.doubleValue() == 0);
  }
}
