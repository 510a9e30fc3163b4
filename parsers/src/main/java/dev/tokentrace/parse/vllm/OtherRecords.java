package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.parse.ParseOutput;

/**
 * Records that are neither stats nor request lines nor configuration ({@link StartupConfig}) but
 * are known: startup facts worth a notice (the server starting, the cache-config info line), and
 * periodic side lines that are deliberately ignored by a named rule (speculative decoding, MFU,
 * CUDA-graph tables, batch-size timing).
 */
final class OtherRecords {
  private static final String[] STARTUP = {
    "Starting vLLM API server",
    "vllm cache_config_info with initialization after num_gpu_blocks is: ",
  };

  /** Prefix and rule pairs of ignored periodic lines. */
  private static final String[][] IGNORED = {
    {"Speculative metrics: ", "vllm: spec decode metrics"},
    {"SpecDecoding metrics: ", "vllm: spec decode metrics"},
    {"MFU: ", "vllm: mfu metrics"},
    {"**CUDAGraph ", "vllm: cudagraph metrics"},
    {"Batchsize forward time stats ", "vllm: batchsize forward stats"},
    // launch arguments in a form StartupConfig does not read: they may hold secrets, never kept
    {"args: ", "vllm: launch arguments"},
  };

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
    if (startsWithAny(message, start, STARTUP)) {
      notice(line, sink, ServerNotice.Kind.STARTUP);
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
