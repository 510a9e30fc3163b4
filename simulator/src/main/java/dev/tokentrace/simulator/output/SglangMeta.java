package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.RequestView;

/**
 * SGLang's per-request {@code meta_info} (docs/formats/sglang.md#meta-info-keys) and the request
 * object's fields, shared by the {@code Finish:} log line (Python repr) and the metrics export
 * (JSON).
 */
final class SglangMeta {
  private final EngineFormat format;
  private final WallClock clock;

  SglangMeta(EngineFormat format, WallClock clock) {
    this.format = format;
    this.clock = clock;
  }

  /**
   * meta_info of a finished (or aborted) request. v0.4.5 has no timing but {@code e2e_latency};
   * v0.5.6 with {@code --enable-metrics} adds queue/prefill times and epoch timestamps
   * (v0.5.5.post2 – 2026-02 key names; prefill_finished_ts = first output seen by the tokenizer).
   */
  void metaInfo(DictText dict, RequestView request, boolean aborted) {
    long end = aborted ? request.serverEndUs() : request.lastTokenUs();
    dict.string("id", ServerIds.sglangRid(request));
    DictText reason = dict.dict("finish_reason");
    if (aborted) {
      reason.string("type", "abort").string("message", "Client disconnected");
    } else {
      reason.string("type", "length").integer("length", request.outputTokens());
    }
    reason.close();
    dict.integer("prompt_tokens", request.promptTokens());
    if (format == EngineFormat.SGLANG_0_5) {
      dict.string("weight_version", "default");
      dict.integer("total_retractions", request.preemptions());
    }
    dict.integer("completion_tokens", request.generatedTokens());
    dict.integer("cached_tokens", request.cachedTokens());
    dict.seconds("e2e_latency", end - request.serverArrivalUs());
    if (format == EngineFormat.SGLANG_0_5 && !aborted) {
      timing(dict, request);
    }
  }

  private void timing(DictText dict, RequestView request) {
    long arrival = request.serverArrivalUs();
    long scheduled = request.firstScheduledUs();
    long first = request.firstTokenUs();
    long last = request.lastTokenUs();
    dict.seconds("queue_time", scheduled - arrival);
    dict.seconds("prefill_launch_delay", 0);
    dict.seconds("prefill_launch_latency", first - scheduled);
    epoch(dict, "request_received_ts", arrival);
    epoch(dict, "request_sent_to_scheduler_ts", arrival);
    epoch(dict, "prefill_finished_ts", first);
    epoch(dict, "response_sent_to_client_ts", last);
    epoch(dict, "decode_finished_ts", last);
    dict.seconds("inference_time", last - scheduled);
    double decodeS = (last - first) / 1e6;
    dict.sixDecimals("decode_throughput", decodeS <= 0 ? 0.0 : request.generatedTokens() / decodeS);
  }

  private void epoch(DictText dict, String key, long simUs) {
    dict.seconds(key, clock.epochUs(simUs));
  }

  /** The request object's fields at {@code --log-requests-level} 0/1: no text, no token IDs. */
  void requestFields(DictText dict, RequestView request) {
    dict.string("rid", ServerIds.sglangRid(request));
    DictText sampling = dict.dict("sampling_params");
    sampling.raw("temperature", "0.0").integer("max_new_tokens", request.outputTokens());
    sampling.bool("ignore_eos", true).close();
    dict.bool("return_logprob", false);
    dict.bool("stream", true);
  }
}
