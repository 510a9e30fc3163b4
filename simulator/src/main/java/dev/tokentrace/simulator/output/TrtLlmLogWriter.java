package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import java.io.Closeable;

/**
 * TensorRT-LLM's {@code server.log} under trtllm-serve (docs/formats/trtllm.md#logger-lines,
 * docs/formats/trtllm.md#iteration-log-line): C++ logger lines without a timestamp, Python logger
 * lines {@code [MM/DD/YYYY-HH:MM:SS] [TRT-LLM] [I] ...}, uvicorn lines, and with {@code
 * print_iter_log} one iteration line per executor iteration (format C, 2025-08-14 .. 2026-05). No
 * per-request lines exist at INFO, except the disconnect notice for aborted requests.
 */
final class TrtLlmLogWriter implements SimObserver, Closeable {
  private final TextFile out;
  private final OutputSettings output;
  private final WallClock clock;
  private final int maxBatch;
  private long previousDeviceUs = -1;

  TrtLlmLogWriter(TextFile out, OutputSettings output, int maxBatch) {
    this.out = out;
    this.output = output;
    this.clock = new WallClock(output.start(), output.zone());
    this.maxBatch = maxBatch;
  }

  void startup(ServerStartup startup, long pid) {
    out.begin()
        .append("[TensorRT-LLM] TensorRT-LLM version: ")
        .append(ServerStartup.release(output.format()));
    out.end();
    // the PyTorch executor's limits line (docs/formats/trtllm.md#startup-configuration-lines)
    python(-startup.leadUs())
        .append("max_seq_len=")
        .append(startup.maxModelLen())
        .append(", max_num_requests=")
        .append(maxBatch)
        .append(", max_num_tokens=")
        .append(startup.maxBatchedTokens())
        .append(", max_batch_size=")
        .append(maxBatch);
    out.end();
    out.begin().append("[TensorRT-LLM][INFO] Set logger level to INFO");
    out.end();
    out.begin()
        .append("[TensorRT-LLM][INFO] Number of tokens per block: ")
        .append(startup.kvTokens() / startup.kvBlocks())
        .append('.');
    out.end();
    StringBuilder line = out.begin().append("[TensorRT-LLM][INFO] [MemUsageChange] Allocated ");
    Decimals.fixed(line, startup.kvTokens() * 128.0 / (1 << 20), 2);
    line.append(" GiB for max tokens in paged KV cache (").append(startup.kvTokens()).append(").");
    out.end();
    if (output.accessLog()) {
      uvicorn("Started server process [" + pid + "]");
      uvicorn("Waiting for application startup.");
      uvicorn("Application startup complete.");
      uvicorn("Uvicorn running on http://localhost:8000 (Press CTRL+C to quit)");
    }
  }

  private void uvicorn(String message) {
    out.begin().append("INFO:     ").append(message);
    out.end();
  }

  private StringBuilder python(long atUs) {
    StringBuilder line = out.begin().append('[');
    clock.slashDateTime(line, atUs);
    return line.append("] [TRT-LLM] [I] ");
  }

  @Override
  public void serverArrival(RequestView request, ServerView server) {
    if (output.accessLog()) {
      // uvicorn logs a streamed response when it starts, no time, no ID
      // (docs/formats/trtllm.md#uvicorn-lines)
      out.begin()
          .append("INFO:     127.0.0.1:")
          .append(port(request))
          .append(" - \"POST ")
          .append(output.api().path())
          .append(" HTTP/1.1\" 200 OK");
      out.end();
    }
  }

  private static int port(RequestView request) {
    return 32768 + Math.floorMod(request.nonce(), 28000);
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    if (!output.iterationLog()) {
      return;
    }
    long deviceUs = step.durationUs() * 24 / 25; // GPU time, a little under the host loop time
    StringBuilder line = python(step.endUs());
    line.append("iter = ").append(step.index()).append(", global_rank = 0, rank = 0,");
    line.append(" currank_total_requests = ").append(server.arrivals()).append('/');
    line.append(server.arrivals()).append(", host_step_time = ");
    Decimals.shortMillis(line, step.durationUs()).append("ms, prev_device_step_time = ");
    if (previousDeviceUs < 0) {
      line.append("N/A");
    } else {
      Decimals.shortMillis(line, previousDeviceUs).append("ms");
    }
    line.append(", timestamp = ");
    clock.dateTime(line, step.endUs(), false);
    line.append(", num_scheduled_requests: ").append(step.batchSize());
    line.append(", states = {'num_ctx_requests': ").append(step.contextRequests());
    line.append(", 'num_ctx_tokens': ").append(step.contextTokens());
    line.append(", 'num_generation_tokens': ").append(generationTokens(step)).append('}');
    out.end();
    previousDeviceUs = deviceUs;
  }

  /**
   * Generation-only iterations run as CUDA graphs padded to a captured batch size
   * (docs/formats/trtllm.md#iteration-log-line).
   */
  private int generationTokens(StepView step) {
    int tokens = step.generationRequests();
    if (tokens == 0 || step.contextRequests() > 0) {
      return tokens;
    }
    int padded = Integer.highestOneBit(tokens);
    padded = padded == tokens ? tokens : padded * 2;
    return Math.min(padded, Math.max(tokens, maxBatch));
  }

  @Override
  public void serverAborted(RequestView request, ServerView server) {
    python(server.nowUs())
        .append("Address(host='127.0.0.1', port=")
        .append(port(request))
        .append(") is disconnected, abort ")
        .append(ServerIds.trtllmRequestId(request));
    out.end();
  }

  @Override
  public void close() {
    out.close();
  }
}
