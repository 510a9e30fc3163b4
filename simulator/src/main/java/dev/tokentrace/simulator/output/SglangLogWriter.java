package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import java.io.Closeable;

/**
 * SGLang's {@code server.log} (docs/formats/sglang.md): the scheduler's {@code Prefill batch} line
 * per prefill batch (written when the batch is scheduled, before its forward pass, in both
 * generations), a {@code Decode batch} line every {@code --decode-log-interval} (40) decode
 * iterations, retraction lines, and with {@code --log-requests} the tokenizer's {@code Receive:} /
 * {@code Finish:} lines. Scheduler lines carry the rank tags, tokenizer and uvicorn lines none.
 */
final class SglangLogWriter implements SimObserver, Closeable {
  static final int DECODE_LOG_INTERVAL = 40;
  private static final int CUDA_GRAPH_MAX_BS = 160;

  private final TextFile out;
  private final OutputSettings output;
  private final EngineFormat format;
  private final WallClock clock;
  private final SglangMeta meta;
  private final String rankTag;
  private final boolean v04;
  private long decodeIterations;
  private long lastDecodeLogUs;
  private long tokensSinceDecodeLog;
  private double newTokenRatio = 0.7;

  SglangLogWriter(TextFile out, OutputSettings output) {
    this.out = out;
    this.output = output;
    this.format = output.format();
    this.v04 = format == EngineFormat.SGLANG_0_4;
    this.clock = new WallClock(output.start(), output.zone());
    this.meta = new SglangMeta(format, clock);
    // v0.3.3.post1 - v0.4.6.post1: " TP{n}" always; from v0.4.6.post2 TP only when tp_size > 1
    this.rankTag = v04 || output.tpSize() > 1 ? " TP0" : "";
  }

  /**
   * Start-up lines of every scheduler rank, then the HTTP server's ready line
   * (docs/formats/sglang.md#other-scheduler-lines).
   */
  void startup(ServerStartup startup) {
    long at = -startup.leadUs();
    double gigabytes = startup.kvTokens() * 64.0 / (1 << 20); // 64 KiB per token, K and V each
    serverArgs(at, startup);
    for (int rank = 0; rank < output.tpSize(); rank++) {
      String tag = rankTag.isEmpty() ? "" : " TP" + rank;
      prefix(at, tag).append("Load weight begin. avail mem=78.52 GB");
      out.end();
      prefix(at, tag)
          .append(
              "Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, avail mem=63.47 GB,")
          .append(" mem usage=15.05 GB.");
      out.end();
      StringBuilder line = prefix(at, tag).append("KV Cache is allocated. #tokens: ");
      line.append(startup.kvTokens()).append(", K size: ");
      Decimals.fixed(line, gigabytes, 2).append(" GB, V size: ");
      Decimals.fixed(line, gigabytes, 2).append(" GB");
      out.end();
    }
    StringBuilder line = prefix(at, rankTag).append("max_total_num_tokens=");
    line.append(startup.kvTokens()).append(", chunked_prefill_size=");
    line.append(startup.chunkedPrefill() ? startup.maxBatchedTokens() : -1);
    line.append(", max_prefill_tokens=16384, max_running_requests=").append(startup.maxBatch());
    line.append(", context_len=").append(startup.maxModelLen());
    line.append(", available_gpu_mem=12.34 GB");
    out.end();
    prefix(at, "").append("The server is fired up and ready to roll!");
    out.end();
  }

  /**
   * The launch arguments as {@code ServerArgs} prints them
   * (docs/formats/sglang.md#startup-configuration-lines).
   */
  private void serverArgs(long at, ServerStartup startup) {
    prefix(at, "")
        .append("server_args=ServerArgs(model_path='")
        .append(ServerStartup.MODEL)
        .append("', tokenizer_path='")
        .append(ServerStartup.MODEL)
        .append("', host='0.0.0.0', port=30000, dtype='auto', quantization=None,")
        .append(" kv_cache_dtype='auto', context_length=")
        .append(startup.maxModelLen())
        .append(", mem_fraction_static=0.88, max_running_requests=")
        .append(startup.maxBatch())
        .append(", chunked_prefill_size=")
        .append(startup.chunkedPrefill() ? startup.maxBatchedTokens() : -1)
        .append(", max_prefill_tokens=16384, schedule_policy='fcfs', tp_size=")
        .append(output.tpSize())
        .append(", dp_size=1, ep_size=1, pp_size=1, api_key=None, log_requests=True,")
        .append(" disable_radix_cache=")
        .append(startup.prefixCaching() ? "False" : "True")
        .append(", speculative_algorithm=None)");
    out.end();
  }

  private StringBuilder prefix(long atUs, String tag) {
    StringBuilder line = out.begin().append('[');
    clock.dateTime(line, atUs, output.logMillis() && !v04);
    return line.append(tag).append("] ");
  }

  @Override
  public void serverArrival(RequestView request, ServerView server) {
    if (output.requestLogging()) {
      StringBuilder line = prefix(request.serverArrivalUs(), "").append("Receive: obj=");
      requestObject(line, request);
      out.end();
    }
    if (output.accessLog()) {
      // uvicorn's own format since v0.4.1.post7: "[%(asctime)s] %(levelprefix)s ..."
      // (docs/formats/sglang.md#uvicorn-lines)
      StringBuilder line = out.begin().append('[');
      clock.dateTime(line, request.serverArrivalUs(), false);
      line.append("] INFO:     127.0.0.1:").append(32768 + Math.floorMod(request.nonce(), 28000));
      line.append(" - \"POST ").append(v04 ? "/generate" : output.api().path());
      line.append(" HTTP/1.1\" 200 OK");
      out.end();
    }
  }

  private void requestObject(StringBuilder line, RequestView request) {
    line.append("GenerateReqInput(rid='").append(ServerIds.sglangRid(request));
    line.append("', sampling_params={'temperature': 0.0, 'max_new_tokens': ");
    line.append(request.outputTokens()).append(", 'ignore_eos': True}, return_logprob=False,");
    line.append(" logprob_start_len=-1, top_logprobs_num=0, stream=True, log_metrics=True,");
    line.append(" modalities=None, lora_path=None, session_params=None)");
  }

  @Override
  public void stepStarted(StepView step, ServerView server) {
    if (step.preempted() > 0) {
      retracted(step, server);
    }
    if (step.contextRequests() == 0) {
      return;
    }
    StringBuilder line = prefix(step.startUs(), rankTag);
    line.append(v04 ? "Prefill batch. " : "Prefill batch, ");
    line.append("#new-seq: ").append(step.contextRequests());
    line.append(", #new-token: ").append(step.contextTokens());
    line.append(", #cached-token: ").append(step.cachedTokens()).append(", token usage: ");
    usage(line, server).append(", #running-req: ").append(server.decoding());
    line.append(", #queue-req: ").append(server.waiting()).append(", ");
    out.end();
  }

  private void retracted(StepView step, ServerView server) {
    double before = newTokenRatio;
    newTokenRatio = Math.min(1.0, newTokenRatio + 0.1 * step.preempted());
    StringBuilder line = prefix(step.startUs(), rankTag);
    // v0.2.14 - v0.4.6.post5 / v0.4.7 - 2025-12-23 wordings
    // (docs/formats/sglang.md#other-scheduler-lines)
    line.append(
        v04 ? "Decode out of memory happened." : "KV cache pool is full. Retract requests.");
    line.append(" #retracted_reqs: ").append(step.preempted()).append(", #new_token_ratio: ");
    Decimals.fixed(line, before, 4).append(" -> ");
    Decimals.fixed(line, newTokenRatio, 4);
    out.end();
  }

  private static StringBuilder usage(StringBuilder line, ServerView server) {
    return Decimals.fixed(line, (double) server.kvUsedBlocks() / server.kvCapacityBlocks(), 2);
  }

  @Override
  public void stepFinished(StepView step, ServerView server) {
    if (step.generationRequests() == 0) {
      return;
    }
    newTokenRatio = Math.max(0.1, newTokenRatio - 0.0001);
    tokensSinceDecodeLog += step.generationRequests();
    if (++decodeIterations % DECODE_LOG_INTERVAL != 0) {
      return;
    }
    double seconds = Math.max(1e-6, (step.endUs() - lastDecodeLogUs) / 1e6);
    StringBuilder line = prefix(step.endUs(), rankTag);
    line.append(v04 ? "Decode batch. " : "Decode batch, ");
    line.append("#running-req: ").append(step.generationRequests());
    line.append(", #token: ").append(server.kvUsedTokens()).append(", token usage: ");
    usage(line, server).append(", ");
    if (!v04) {
      line.append("cuda graph: ");
      line.append(step.generationRequests() <= CUDA_GRAPH_MAX_BS ? "True" : "False").append(", ");
    }
    line.append("gen throughput (token/s): ");
    Decimals.fixed(line, tokensSinceDecodeLog / seconds, 2);
    line.append(", #queue-req: ").append(server.waiting()).append(", ");
    out.end();
    lastDecodeLogUs = step.endUs();
    tokensSinceDecodeLog = 0;
  }

  @Override
  public void serverFinished(RequestView request, ServerView server) {
    finish(request, request.lastTokenUs(), false);
  }

  @Override
  public void serverAborted(RequestView request, ServerView server) {
    finish(request, server.nowUs(), true);
  }

  private void finish(RequestView request, long atUs, boolean aborted) {
    if (!output.requestLogging()) {
      return;
    }
    StringBuilder line = prefix(atUs, "").append("Finish: obj=");
    requestObject(line, request);
    line.append(", out=");
    DictText outDict = DictText.open(line, false);
    DictText metaInfo = outDict.dict("meta_info");
    meta.metaInfo(metaInfo, request, aborted);
    metaInfo.close();
    outDict.close();
    out.end();
  }

  @Override
  public void close() {
    out.close();
  }
}
