package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.Ids;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.StepView;

/**
 * Message bodies of vLLM's lines, per format generation (docs/formats/vllm.md#stats-line,
 * docs/formats/vllm.md#request-lines, docs/formats/vllm.md#scheduler-lines).
 */
final class VllmLines {
  private final EngineFormat format;
  private final OutputSettings output;
  private final WallClock clock;
  private boolean prefixCaching;

  VllmLines(EngineFormat format, OutputSettings output) {
    this.format = format;
    this.output = output;
    this.clock = new WallClock(output.start(), output.zone());
  }

  WallClock clock() {
    return clock;
  }

  void prefixCaching(boolean enabled) {
    this.prefixCaching = enabled;
  }

  boolean prefixCaching() {
    return prefixCaching;
  }

  /**
   * {@code Received request ...}: three layouts by period (docs/formats/vllm.md#request-lines
   * table).
   */
  void received(StringBuilder line, RequestView request) {
    line.append("Received request ");
    line.append(ServerIds.vllmExternal(request, format, output.api())).append(": ");
    if (format == EngineFormat.VLLM_0_16) {
      // 2025-10-13 -> H: prompt only at DEBUG (5c7fe2549, #26713)
      line.append("params: ");
      samplingParams(line, request);
      line.append(", lora_request: None.");
      return;
    }
    line.append("prompt: ");
    prompt(line, request);
    line.append(", params: ");
    samplingParams(line, request);
    line.append(", prompt_token_ids: ");
    tokenIds(line, request);
    if (format == EngineFormat.VLLM_0_7) {
      line.append(", lora_request: None, prompt_adapter_request: None.");
    } else {
      line.append(", prompt_embeds shape: None, lora_request: None.");
    }
  }

  /** A synthetic prompt, cut to {@code --max-log-len} characters, in Python repr quotes. */
  private void prompt(StringBuilder line, RequestView request) {
    String text =
        "Simulated request with a prompt of "
            + request.promptTokens()
            + " tokens, please write "
            + request.outputTokens()
            + " tokens.";
    int length =
        output.maxLogLen() == 0 ? text.length() : Math.min(text.length(), output.maxLogLen());
    line.append('\'').append(text, 0, length).append('\'');
  }

  private void tokenIds(StringBuilder line, RequestView request) {
    int count = request.promptTokens();
    if (output.maxLogLen() > 0) {
      count = Math.min(count, output.maxLogLen());
    }
    line.append('[');
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        line.append(", ");
      }
      line.append(i == 0 ? 128000 : 100 + Math.floorMod(Ids.mix(request.nonce() + i), 127_000));
    }
    line.append(']');
  }

  /**
   * The repr of SamplingParams; the field list changes between versions, parsers treat it opaque.
   */
  private static void samplingParams(StringBuilder line, RequestView request) {
    line.append("SamplingParams(n=1, presence_penalty=0.0, frequency_penalty=0.0,");
    line.append(" repetition_penalty=1.0, temperature=0.0, top_p=1.0, top_k=0, min_p=0.0,");
    line.append(" seed=None, stop=[], stop_token_ids=[], bad_words=[],");
    line.append(" include_stop_str_in_output=False, ignore_eos=True, max_tokens=");
    line.append(request.outputTokens());
    line.append(", min_tokens=0, logprobs=None, prompt_logprobs=None, skip_special_tokens=True,");
    line.append(" spaces_between_special_tokens=True, truncate_prompt_tokens=None,");
    line.append(" guided_decoding=None, extra_args=None)");
  }

  /**
   * The periodic stats line of this generation (docs/formats/vllm.md#v0-stats-line,
   * docs/formats/vllm.md#v1-stats-line).
   */
  void stats(
      StringBuilder line,
      double promptTps,
      double generationTps,
      long preemptions,
      ServerView server) {
    double kvPct = 100.0 * server.kvUsedBlocks() / server.kvCapacityBlocks();
    if (format != EngineFormat.VLLM_0_7) {
      line.append("Engine 000: ");
    }
    line.append("Avg prompt throughput: ");
    Decimals.fixed(line, promptTps, 1).append(" tokens/s, Avg generation throughput: ");
    Decimals.fixed(line, generationTps, 1).append(" tokens/s, Running: ");
    line.append(server.running()).append(" reqs, ");
    if (format == EngineFormat.VLLM_0_7) {
      line.append("Swapped: 0 reqs, Pending: ").append(server.waiting()).append(" reqs, ");
      line.append("GPU KV cache usage: ");
      Decimals.fixed(line, kvPct, 1).append("%, CPU KV cache usage: 0.0%.");
      return;
    }
    line.append("Waiting: ").append(server.waiting()).append(" reqs, ");
    if (format == EngineFormat.VLLM_0_16 && preemptions > 0) {
      line.append("Preemptions: ").append(preemptions).append(", "); // ecf8230d4, 2025-11-14
    }
    line.append("GPU KV cache usage: ");
    Decimals.fixed(line, kvPct, 1).append("%, Prefix cache hit rate: ");
    Decimals.fixed(line, hitRatePct(server), 1).append('%');
  }

  /**
   * V0 {@code Prefix cache hit rate: GPU: %.2f%%, CPU: %.2f%%} (3ac50b47d,
   * docs/formats/vllm.md#v0-stats-line).
   */
  void v0PrefixCache(StringBuilder line, ServerView server) {
    line.append("Prefix cache hit rate: GPU: ");
    Decimals.fixed(line, hitRatePct(server), 2).append("%, CPU: 0.00%");
  }

  private static double hitRatePct(ServerView server) {
    long admitted = server.promptTokensAdmitted();
    return admitted == 0 ? 0.0 : 100.0 * server.promptTokensCached() / admitted;
  }

  /**
   * {@code Iteration(i): ...} (6ebe34d6f, #31193, v0.16.0; docs/formats/vllm.md#scheduler-lines).
   */
  void iteration(StringBuilder line, StepView step) {
    line.append("Iteration(").append(step.index()).append("): ");
    line.append(step.contextRequests()).append(" context requests, ");
    line.append(step.contextTokens()).append(" context tokens, ");
    line.append(step.generationRequests()).append(" generation requests, ");
    line.append(step.generationRequests()).append(" generation tokens, iteration elapsed time: ");
    Decimals.fixed(line, step.durationUs() / 1000.0, 2).append(" ms");
  }
}
