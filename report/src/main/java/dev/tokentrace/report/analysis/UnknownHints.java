package dev.tokentrace.report.analysis;

import dev.tokentrace.report.analysis.EnvironmentSettings.Setting;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.Text;

/**
 * How to get a setting recorded that an instance's logs did not state: which line to keep, which
 * flag to pass explicitly so that the engine prints it, or which command to run next to the logs
 * (docs/formats/*.md, "Startup configuration lines", says which versions print what). Pure.
 */
final class UnknownHints {
  private UnknownHints() {}

  static Text how(String engine, Setting setting, boolean noConfigLines) {
    if (setting == Setting.GPU_MODEL) {
      return Text.of(
          "no engine log names it: save ",
          code("nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv"),
          " next to the logs");
    }
    if (noConfigLines) {
      return Text.of(
          "its files hold no startup configuration line: keep the server log from the start"
              + " of the process (the first lines print the version and settings)");
    }
    switch (engine) {
      case "vllm":
        return vllm(setting);
      case "sglang":
        return sglang(setting);
      case "trtllm":
        return trtllm(setting);
      default:
        return Text.of("not printed by this engine's logs: record it with the run");
    }
  }

  private static Text vllm(Setting setting) {
    switch (setting) {
      case VERSION:
        return Text.of(
            "keep the ", code("vLLM API server version"), " line (the first line of the log)");
      case MAX_SEQUENCES:
        return Text.of(
            "vLLM prints it only when set: pass ",
            code("--max-num-seqs"),
            " explicitly, it then appears in the launch arguments");
      case MAX_STEP_TOKENS:
        return Text.of(
            "pass ",
            code("--max-num-batched-tokens"),
            " explicitly, it then appears in the launch arguments");
      case CHUNKED_PREFILL:
      case PREFIX_CACHING:
        return Text.of(
            "this version's engine config line leaves it out: pass ",
            code(
                "--enable-"
                    + (setting == Setting.CHUNKED_PREFILL ? "chunked-prefill" : "prefix-caching")),
            " (or its ",
            code("--no-"),
            " form) explicitly");
      case KV_CACHE:
        return Text.of(
            "keep the ",
            code("GPU KV cache size"),
            " (V1) or ",
            code("# GPU blocks"),
            " (V0) line");
      default:
        return Text.of(
            "keep the ",
            code("Initializing ... engine ... with config:"),
            " line, or pass the flag explicitly so that the launch arguments show it");
    }
  }

  private static Text sglang(Setting setting) {
    switch (setting) {
      case VERSION:
        return Text.of(
            "SGLang logs no version line: record ",
            code("python -c 'import sglang; print(sglang.__version__)'"),
            " with the run");
      case KV_CACHE:
      case MAX_SEQUENCES:
      case MAX_LENGTH:
        return Text.of("keep the scheduler's ", code("max_total_num_tokens=..."), " line");
      default:
        return Text.of("keep the ", code("server_args=ServerArgs(...)"), " line");
    }
  }

  private static Text trtllm(Setting setting) {
    switch (setting) {
      case VERSION:
        return Text.of(
            "keep the ",
            code("[TensorRT-LLM] TensorRT-LLM version:"),
            " line printed at import (stdout)");
      case KV_CACHE:
        return Text.of(
            "keep the ",
            code("[MemUsageChange] Allocated ... for max tokens in paged KV cache"),
            " line");
      case MAX_SEQUENCES:
      case MAX_STEP_TOKENS:
      case MAX_LENGTH:
        return Text.of(
            "keep the INFO line ",
            code("max_seq_len=..., max_num_requests=..., max_num_tokens=..."),
            " (PyTorch backend), or record the engine's build config (",
            code("config.json"),
            ")");
      default:
        return Text.of(
            "TensorRT-LLM does not log it at INFO: record the ",
            code("trtllm-serve"),
            " command line and its ",
            code("--extra_llm_api_options"),
            " file (or the engine's ",
            code("config.json"),
            ") with the run");
    }
  }

  /** A line, flag or command, shown as typed. */
  private static Inline code(String text) {
    return Inline.whole(text);
  }
}
