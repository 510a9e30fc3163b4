package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.parse.ParseOutput;

/**
 * Records that are neither stats nor request lines but are known: startup and config facts worth a
 * notice (docs/formats/vllm.md#scheduler-lines and docs/formats/vllm.md#what-the-logs-give:
 * version, KV-cache capacity, maximum concurrency, chunked prefill budget), and periodic side lines
 * that are deliberately ignored by a named rule (speculative decoding, KV transfer, MFU, CUDA-graph
 * tables, batch-size timing, and the launch arguments, which may hold an API key).
 */
final class OtherRecords {
  private static final String[] STARTUP = {
    "vLLM API server version ",
    "Starting vLLM API server",
    "Initializing a V1 LLM engine",
    "Initializing an LLM engine",
    "GPU KV cache size: ",
    "Maximum concurrency for ",
    "vllm cache_config_info with initialization after num_gpu_blocks is: ",
  };

  private static final String[] CONFIG = {
    "Chunked prefill is enabled with max_num_batched_tokens=",
  };

  /** Prefix and rule pairs of ignored periodic lines. */
  private static final String[][] IGNORED = {
    {"Speculative metrics: ", "vllm: spec decode metrics"},
    {"SpecDecoding metrics: ", "vllm: spec decode metrics"},
    {"KV Transfer metrics: ", "vllm: kv transfer metrics"},
    {"MFU: ", "vllm: mfu metrics"},
    {"**CUDAGraph ", "vllm: cudagraph metrics"},
    {"Batchsize forward time stats ", "vllm: batchsize forward stats"},
    // the launch arguments can hold secrets (--api-key) and chat templates: never kept
    {"non-default args: ", "vllm: launch arguments"},
    {"args: ", "vllm: launch arguments"},
  };

  /** The engine config dump after this is long and not needed: the version before it is. */
  private static final String CONFIG_DUMP = " with config: ";

  private OtherRecords() {}

  /** True when the message was one of these records (and has been reported). */
  static boolean handle(RecordLine line, ParseOutput sink) {
    String message = line.message();
    int start = enginePrefixEnd(message);
    for (String[] ignored : IGNORED) {
      if (message.startsWith(ignored[0], start)) {
        line.ignore(sink, ignored[1]);
        return true;
      }
    }
    if (startsWithAny(message, start, STARTUP) || isBlockCount(message)) {
      notice(line, sink, ServerNotice.Kind.STARTUP);
      return true;
    }
    if (startsWithAny(message, start, CONFIG)) {
      notice(line, sink, ServerNotice.Kind.CONFIG);
      return true;
    }
    return false;
  }

  /** After {@code Engine NNN: } (V1 loggers, MFU, cache info), else 0. */
  static int enginePrefixEnd(String message) {
    boolean prefixed =
        message.startsWith("Engine ")
            && Ascii.digitsEnd(message, 7) == 10
            && message.startsWith(": ", 10);
    return prefixed ? 12 : 0;
  }

  /** V0 {@code # GPU blocks: N, # CPU blocks: M} (also {@code # cuda blocks}), V1 early 2025. */
  private static boolean isBlockCount(String message) {
    if (!message.startsWith("# ")) {
      return false;
    }
    int space = message.indexOf(' ', 2);
    return space > 2 && space < 16 && message.startsWith(" blocks: ", space);
  }

  private static boolean startsWithAny(String message, int start, String[] prefixes) {
    for (String prefix : prefixes) {
      if (message.startsWith(prefix, start)) {
        return true;
      }
    }
    return false;
  }

  private static void notice(RecordLine line, ParseOutput sink, ServerNotice.Kind kind) {
    String message = line.message();
    int dump = message.indexOf(CONFIG_DUMP);
    if (dump > 0 && message.startsWith("Initializing ")) {
      message = message.substring(0, dump);
    }
    sink.event(
        new ServerNotice(
            Engine.VLLM,
            line.instance(),
            line.ts(),
            line.position(),
            line.level().name(),
            kind,
            message));
  }
}
