package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.parse.ParseOutput;

/**
 * V0's extra stats line {@code Prefix cache hit rate: GPU: 94.35%, CPU: 0.00%} (3ac50b47d,
 * 2024-08-19; docs/formats/vllm.md#v0-stats-line), logged right after the main V0 stats line. It
 * becomes an engine_stats event of its own that carries only {@code prefix_hit_pct} (the GPU rate):
 * merging it into the preceding event would hold that event back until the next line arrives, which
 * a live tail cannot afford. SQL reads the hit rate from the rows where it is not null.
 */
final class PrefixCacheLine {
  static final String PREFIX = "Prefix cache hit rate: GPU: ";
  private static final String CPU = "%, CPU: ";

  private PrefixCacheLine() {}

  static void parse(RecordLine line, ParseOutput sink) {
    String message = line.message();
    int gpuEnd = numberEnd(message, PREFIX.length());
    double gpu = Decimals.decimal(message, PREFIX.length(), gpuEnd);
    if (gpu == Decimals.INVALID || !message.startsWith(CPU, gpuEnd)) {
      line.reject(sink, "prefix cache line: bad 'GPU' value");
      return;
    }
    int cpuStart = gpuEnd + CPU.length();
    int cpuEnd = numberEnd(message, cpuStart);
    double cpu = Decimals.decimal(message, cpuStart, cpuEnd);
    if (cpu == Decimals.INVALID
        || !message.startsWith("%", cpuEnd)
        || cpuEnd + 1 != message.length()) {
      line.reject(sink, "prefix cache line: bad 'CPU' value");
      return;
    }
    Double hit = Double.isNaN(gpu) ? null : gpu;
    sink.event(
        new EngineStats(
            Engine.VLLM,
            line.instance(),
            line.ts(),
            line.position(),
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            hit,
            null));
  }

  private static int numberEnd(String text, int from) {
    if (text.startsWith("nan", from)) {
      return from + 3;
    }
    int at = from;
    while (at < text.length() && (Ascii.isDigit(text.charAt(at)) || text.charAt(at) == '.')) {
      at++;
    }
    return at;
  }
}
