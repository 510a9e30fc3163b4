package dev.tokentrace.parse.sglang;

import dev.tokentrace.parse.Numbers;

/**
 * The prefill/decode parts of a time stats line (docs/formats/pd.md#sglang-time-stats): the prefill
 * server's wait before its waiting queue (the bootstrap queue) and its KV transfer, read back from
 * {@code transfer_total} and {@code transfer_speed}. Stateless.
 */
final class PdTimeStats {
  /** {@code type=} of a prefill server's line. */
  static final String PREFILL = "prefill";

  /** {@code type=} of a decode server's line. */
  static final String DECODE = "decode";

  /** 1 GB of {@code transfer_speed} is 1024 MB of {@code transfer_total} (MB = 2^20 bytes). */
  private static final double MB_PER_GB = 1024;

  private PdTimeStats() {}

  /**
   * The bootstrap queue in ms, 0 when the line has none: {@code bootstrap_queue_duration(Xms)}
   * (v0.5.4.post3 – 2026-05-05) or {@code bootstrap_queue_duration=Xms} (2026-05-06+), else {@code
   * bootstrap_duration} (the whole queue in v0.5.3rc2 – v0.5.4.post2, its first part from
   * 2026-05-06) plus {@code alloc_wait_duration}; NaN when a value is unreadable.
   */
  static double bootstrapQueueMs(String line, int bodyStart) {
    int whole = field(line, bodyStart, "bootstrap_queue_duration(");
    if (whole < 0) {
      whole = field(line, bodyStart, "bootstrap_queue_duration=");
    }
    if (whole >= 0) {
      return milliseconds(line, whole);
    }
    double total = 0;
    for (String name : new String[] {"bootstrap_duration=", "alloc_wait_duration="}) {
      int at = field(line, bodyStart, name);
      if (at >= 0) {
        total += milliseconds(line, at);
      }
    }
    return total;
  }

  /**
   * The transfer in ms: {@code transfer_total} MB / ({@code transfer_speed} GB/s × 1024) × 1000,
   * SGLang having computed the speed as that size over the transfer's latency; -1 when the line has
   * no transfer (older layouts, or a speed of 0: not measured), NaN when unreadable.
   */
  static double transferMs(String line, int bodyStart) {
    double speed = number(line, field(line, bodyStart, "transfer_speed="));
    double total = number(line, field(line, bodyStart, "transfer_total="));
    if (speed == -1 || total == -1) {
      return -1;
    }
    if (Double.isNaN(speed) || Double.isNaN(total)) {
      return Double.NaN;
    }
    return speed == 0 ? -1 : total / (speed * MB_PER_GB) * 1000;
  }

  /** The transfer's size in MB ({@code transfer_total}); only called when it was read. */
  static double totalMb(String line, int bodyStart) {
    return number(line, field(line, bodyStart, "transfer_total="));
  }

  /** The transfer's speed in MB/s ({@code transfer_speed} × 1024). */
  static double speedMbS(String line, int bodyStart) {
    return number(line, field(line, bodyStart, "transfer_speed=")) * MB_PER_GB;
  }

  /** The start of the value of {@code name} when it begins the body or follows a space. */
  static int field(String line, int from, String name) {
    for (int at = line.indexOf(name, from); at >= 0; at = line.indexOf(name, at + 1)) {
      if (at == from || line.charAt(at - 1) == ' ') {
        return at + name.length();
      }
    }
    return -1;
  }

  /** {@code 12.34ms} at {@code at} (a sign allowed: clocks can step); NaN when unreadable. */
  static double milliseconds(String line, int at) {
    int end = line.indexOf("ms", at);
    if (end < 0) {
      return Double.NaN;
    }
    boolean negative = at < end && line.charAt(at) == '-';
    double value = Numbers.decimal(line, negative ? at + 1 : at, end);
    return negative ? -value : value;
  }

  /**
   * The unsigned decimal at {@code at} before its unit ({@code GB/s}, {@code MB}); -1 if absent.
   */
  private static double number(String line, int at) {
    if (at < 0) {
      return -1;
    }
    int end = at;
    while (end < line.length()
        && (Character.isDigit(line.charAt(end)) || line.charAt(end) == '.')) {
      end++;
    }
    return end == at ? Double.NaN : Numbers.decimal(line, at, end);
  }
}
