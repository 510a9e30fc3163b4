package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import java.io.Closeable;

/**
 * TensorRT-LLM IterationStats (docs/formats/trtllm.md#iteration-stats-json,
 * docs/formats/trtllm.md#metrics-endpoint) as a scraper of {@code GET /metrics} saves them: one
 * compact JSON object per iteration, per line ({@code iteration_stats.jsonl}). C++ keys in
 * nlohmann's alphabetical order; PyTorch backend semantics (timestamp = iteration start, {@code
 * maxBatchSize*}/{@code maxNumTokens*} and memory other than GPU left 0) with the overlap scheduler
 * off, so {@code iterLatencyMS} is one iteration. {@code newActiveRequestsQueueLatencyMS} is the
 * C++ definition: the summed queue time (ms) of the requests that became active in the iteration.
 */
final class TrtLlmStatsWriter implements SimObserver, Closeable {
  private static final long GPU_MEMORY_BYTES = 72_345_678_848L;

  private final TextFile out;
  private final WallClock clock;
  private final int maxBatch;

  TrtLlmStatsWriter(TextFile out, OutputSettings output, int maxBatch) {
    this.out = out;
    this.clock = new WallClock(output.start(), output.zone());
    this.maxBatch = maxBatch;
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    StringBuilder json = out.begin();
    json.append("{\"cpuMemUsage\":0,\"gpuMemUsage\":").append(GPU_MEMORY_BYTES);
    json.append(
        ",\"inflightBatchingStats\":{\"avgNumDecodedTokensPerIter\":0.0,\"microBatchId\":0");
    json.append(",\"numContextRequests\":").append(step.contextRequests());
    json.append(",\"numCtxTokens\":").append(step.contextTokens());
    json.append(",\"numGenRequests\":").append(step.generationRequests());
    json.append(",\"numPausedRequests\":").append(step.preempted());
    json.append(",\"numScheduledRequests\":").append(step.batchSize());
    json.append("},\"iter\":").append(step.index()).append(",\"iterLatencyMS\":");
    Decimals.shortMillis(json, step.durationUs());
    kvCacheStats(json, server);
    json.append(",\"maxBatchSizeRuntime\":0,\"maxBatchSizeStatic\":0");
    json.append(",\"maxBatchSizeTunerRecommended\":0,\"maxNumActiveRequests\":").append(maxBatch);
    json.append(",\"maxNumTokensRuntime\":0,\"maxNumTokensStatic\":0");
    json.append(",\"maxNumTokensTunerRecommended\":0,\"newActiveRequestsQueueLatencyMS\":");
    Decimals.shortMillis(json, step.newRequestsQueueUs());
    json.append(",\"numActiveRequests\":").append(server.running());
    json.append(",\"numCompletedRequests\":").append(step.finished());
    json.append(",\"numNewActiveRequests\":").append(step.newRequests());
    json.append(",\"numQueuedRequests\":").append(server.waiting());
    json.append(",\"pinnedMemUsage\":0,\"specDecodingStats\":null,\"staticBatchingStats\":null");
    json.append(",\"timestamp\":\"");
    clock.dashedMicros(json, step.startUs());
    json.append("\"}");
    out.end();
  }

  private static void kvCacheStats(StringBuilder json, ServerView server) {
    long reused = server.promptTokensCached() / server.blockSize();
    long missed = Math.max(0, server.promptTokensAdmitted() / server.blockSize() - reused);
    json.append(",\"kvCacheStats\":{\"allocNewBlocks\":").append(server.kvBlocksAllocated());
    json.append(",\"allocTotalBlocks\":").append(server.kvBlocksAllocated() + reused);
    json.append(",\"cacheHitRate\":");
    Decimals.sixDecimals(json, reused + missed == 0 ? 0.0 : (double) reused / (reused + missed));
    json.append(",\"freeNumBlocks\":").append(server.kvCapacityBlocks() - server.kvUsedBlocks());
    json.append(",\"maxNumBlocks\":").append(server.kvCapacityBlocks());
    json.append(",\"missedBlocks\":").append(missed);
    json.append(",\"reusedBlocks\":").append(reused);
    json.append(",\"tokensPerBlock\":").append(server.blockSize());
    json.append(",\"usedNumBlocks\":").append(server.kvUsedBlocks()).append('}');
  }

  @Override
  public void close() {
    out.close();
  }
}
