package dev.tokentrace.parse.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Timestamps;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The tensorrtllm_backend's per-iteration stats string, logged at Triton verbose level by {@code
 * WaitForStats} ({@code model_instance_state.cc @ 89ee0f2},
 * docs/formats/trtllm.md#triton-backend-stats), and the same keys from the 2023–2024 GptManager
 * callback ({@code [TensorRT-LLM][INFO] {"Active Request Count":...}}): {@code Active Request
 * Count, Iteration Counter, ..., Timestamp}, then the in-flight ({@code Context Requests,
 * Generation Requests, MicroBatch ID, Paused Requests, Scheduled Requests, Total Context Tokens})
 * or V1 ({@code ..., Total Generation Tokens, Empty Generation Slots}) keys, then the KV keys. Key
 * order changed by version and is not relied on. {@code Waiting Requests} is active minus
 * scheduled, not the queue, so {@code queued} stays null.
 */
final class TritonStatsMapper {
  private final String instance;
  private final Timestamps.Local times;

  TritonStatsMapper(String instance, Timestamps.Local times) {
    this.instance = instance;
    this.times = times;
  }

  static boolean accepts(JsonNode node) {
    return node.has("Iteration Counter") || node.has("Active Request Count");
  }

  void map(JsonNode stats, @Nullable Instant lineTs, SourcePosition source, ParseOutput sink) {
    StepDraft step = new StepDraft();
    step.ts = timestamp(stats, lineTs);
    step.iteration = JsonFields.longCount(stats, "Iteration Counter");
    step.batchSize = JsonFields.count(stats, "Scheduled Requests");
    step.ctxRequests = JsonFields.count(stats, "Context Requests");
    step.genRequests = JsonFields.count(stats, "Generation Requests");
    step.genTokens = JsonFields.count(stats, "Total Generation Tokens");
    step.newTokens = JsonFields.count(stats, "Total Context Tokens");
    Double fraction = JsonFields.nonNegative(stats, "Fraction used KV cache blocks");
    step.tokenUsage =
        fraction != null
            ? fraction
            : StepDraft.fraction(
                JsonFields.count(stats, "Used KV cache blocks"),
                JsonFields.count(stats, "Max KV cache blocks"));
    EngineStats snapshot =
        new EngineStats(
            Engine.TRTLLM,
            instance,
            step.ts,
            source,
            null,
            null,
            null,
            null,
            JsonFields.count(stats, "Active Request Count"),
            null,
            null,
            step.tokenUsage == null ? null : step.tokenUsage * 100,
            null,
            JsonFields.count(stats, "Paused Requests"));
    BatchStep event = step.toEvent(instance, source);
    if (event != null) {
      sink.event(event);
    }
    sink.event(snapshot);
  }

  private @Nullable Instant timestamp(JsonNode stats, @Nullable Instant lineTs) {
    String text = JsonFields.text(stats, "Timestamp");
    if (text == null) {
      return lineTs;
    }
    Instant ts = times.trtllmStats(text);
    if (ts == null) {
      throw new JsonFields.BadValue("Timestamp");
    }
    return ts;
  }
}
