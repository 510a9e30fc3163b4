package dev.tokentrace.report.analysis;

import dev.tokentrace.report.EnvironmentSettings.Setting;

/**
 * How to get a setting recorded that an instance's logs did not state: which line to keep, which
 * flag to pass explicitly so that the engine prints it, or which command to run next to the logs
 * (docs/formats/*.md, "Startup configuration lines", says which versions print what). Pure.
 */
final class UnknownHints {
  private UnknownHints() {}

  static String how(String engine, Setting setting, boolean noConfigLines) {
    if (setting == Setting.GPU_MODEL) {
      return "no engine log names it: save `nvidia-smi --query-gpu=name,memory.total,"
          + "driver_version --format=csv` next to the logs";
    }
    if (noConfigLines) {
      return "its files hold no startup configuration line: keep the server log from the start"
          + " of the process (the first lines print the version and settings)";
    }
    switch (engine) {
      case "vllm":
        return vllm(setting);
      case "sglang":
        return sglang(setting);
      case "trtllm":
        return trtllm(setting);
      default:
        return "not printed by this engine's logs: record it with the run";
    }
  }

  private static String vllm(Setting setting) {
    switch (setting) {
      case VERSION:
        return "keep the `vLLM API server version` line (the first line of the log)";
      case MAX_SEQUENCES:
        return "vLLM prints it only when set: pass `--max-num-seqs` explicitly, it then appears"
            + " in the launch arguments";
      case MAX_STEP_TOKENS:
        return "pass `--max-num-batched-tokens` explicitly, it then appears in the launch"
            + " arguments";
      case CHUNKED_PREFILL:
      case PREFIX_CACHING:
        return "this version's engine config line leaves it out: pass `--enable-"
            + (setting == Setting.CHUNKED_PREFILL ? "chunked-prefill" : "prefix-caching")
            + "` (or its `--no-` form) explicitly";
      case KV_CACHE:
        return "keep the `GPU KV cache size` (V1) or `# GPU blocks` (V0) line";
      default:
        return "keep the `Initializing ... engine ... with config:` line, or pass the flag"
            + " explicitly so that the launch arguments show it";
    }
  }

  private static String sglang(Setting setting) {
    switch (setting) {
      case VERSION:
        return "SGLang logs no version line: record `python -c 'import sglang;"
            + " print(sglang.__version__)'` with the run";
      case KV_CACHE:
      case MAX_SEQUENCES:
      case MAX_LENGTH:
        return "keep the scheduler's `max_total_num_tokens=...` line";
      default:
        return "keep the `server_args=ServerArgs(...)` line";
    }
  }

  private static String trtllm(Setting setting) {
    switch (setting) {
      case VERSION:
        return "keep the `[TensorRT-LLM] TensorRT-LLM version:` line printed at import (stdout)";
      case KV_CACHE:
        return "keep the `[MemUsageChange] Allocated ... for max tokens in paged KV cache` line";
      case MAX_SEQUENCES:
      case MAX_STEP_TOKENS:
      case MAX_LENGTH:
        return "keep the INFO line `max_seq_len=..., max_num_requests=..., max_num_tokens=...`"
            + " (PyTorch backend), or record the engine's build config (`config.json`)";
      default:
        return "TensorRT-LLM does not log it at INFO: record the `trtllm-serve` command line and"
            + " its `--extra_llm_api_options` file (or the engine's `config.json`) with the run";
    }
  }
}
