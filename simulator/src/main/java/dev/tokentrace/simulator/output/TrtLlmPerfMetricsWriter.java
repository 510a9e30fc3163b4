package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import java.io.Closeable;

/**
 * TensorRT-LLM {@code GET /perf_metrics} (docs/formats/trtllm.md#perf-metrics) as a scraper saves
 * it: the endpoint drains a deque, so each scrape (every 10 s) is one line holding the JSON array
 * returned, compact as Starlette writes it ({@code perf_metrics.jsonl}). Times are seconds on the
 * server's steady clock (seconds since boot), not epoch. {@code request_id} is the LLM-API client
 * id.
 */
final class TrtLlmPerfMetricsWriter implements SimObserver, Closeable {
  private static final long SCRAPE_US = 10_000_000;

  private final TextFile out;
  private final long bootOffsetUs;
  private final int blockSize;
  private final StringBuilder pending = new StringBuilder(1 << 16);
  private int pendingItems;
  private long nextScrapeUs = SCRAPE_US;

  TrtLlmPerfMetricsWriter(TextFile out, long seed, int blockSize) {
    this.out = out;
    this.blockSize = blockSize;
    // the host booted a few hours before the run; fraction of a second from the seed too
    this.bootOffsetUs = 3_600_000_000L + Math.floorMod(Ids.mix(seed ^ 0xb007L), 86_400_000_000L);
  }

  /** The steady-clock reading (seconds since boot, in µs) of a model time. */
  long steadyUs(long simUs) {
    return bootOffsetUs + simUs;
  }

  @Override
  public void advance(long nowUs, ServerView server) {
    while (nextScrapeUs < nowUs) {
      scrape();
      nextScrapeUs += SCRAPE_US;
    }
  }

  @Override
  public void serverFinished(RequestView request, ServerView server) {
    StringBuilder json = pending;
    if (pendingItems++ > 0) {
      json.append(',');
    }
    json.append("{\"request_id\":").append(ServerIds.trtllmRequestId(request));
    json.append(",\"perf_metrics\":{\"first_iter\":").append(request.firstScheduledStep());
    json.append(",\"last_iter\":").append(request.lastTokenStep());
    json.append(",\"timing_metrics\":{");
    time(json, "server_arrival_time", request.serverArrivalUs()).append(',');
    time(json, "arrival_time", request.serverArrivalUs()).append(',');
    time(json, "first_scheduled_time", request.firstScheduledUs()).append(',');
    time(json, "first_token_time", request.firstTokenUs()).append(',');
    time(json, "server_first_token_time", request.firstTokenUs()).append(',');
    time(json, "last_token_time", request.lastTokenUs());
    long total = (request.promptTokens() + request.generatedTokens() + blockSize - 1) / blockSize;
    long reused = request.cachedTokens() / blockSize;
    long promptBlocks = (request.promptTokens() + blockSize - 1) / blockSize;
    json.append("},\"kv_cache_metrics\":{\"num_total_allocated_blocks\":").append(total);
    json.append(",\"num_new_allocated_blocks\":").append(total - reused);
    json.append(",\"num_reused_blocks\":").append(reused);
    json.append(",\"num_missed_blocks\":").append(promptBlocks - reused).append("}}}");
  }

  private StringBuilder time(StringBuilder json, String key, long simUs) {
    json.append('"').append(key).append("\":");
    return Decimals.seconds(json, steadyUs(simUs));
  }

  @Override
  public void finished(ServerView server) {
    scrape();
  }

  private void scrape() {
    if (pendingItems == 0) {
      return; // an empty drain returns [], which a scraper need not keep
    }
    out.begin().append('[').append(pending).append(']');
    out.end();
    pending.setLength(0);
    pendingItems = 0;
  }

  @Override
  public void close() {
    out.close();
  }
}
