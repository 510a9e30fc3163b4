package dev.tokentrace.parse.sglang;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Derives a decode step time from consecutive {@code Decode batch} lines of one rank stream, since
 * SGLang never logs one (docs/formats/sglang.md#what-the-logs-give).
 *
 * <p>SGLang writes one Decode line every {@code --decode-log-interval} decode iterations, after the
 * iteration's result is processed (docs/formats/sglang.md#batch-lines). The interval is a server
 * option that the log never prints, so this class assumes SGLang's default, {@value
 * #DECODE_LOG_INTERVAL} (hard-coded before v0.3.5, the option's default since;
 * docs/formats/sglang.md#logging-options), and does not take it from settings: {@code step_ms} =
 * (wall time between two Decode lines of the stream) / {@value #DECODE_LOG_INTERVAL}. It is the
 * mean wall time per decode iteration over that window, <em>including</em> prefill batches and idle
 * time in between, the same window SGLang's {@code gen throughput} uses
 * (docs/formats/sglang.md#batch-line-fields). A server run with another interval gives
 * proportionally wrong values; that is why the event says {@code step_ms_derived = true}.
 *
 * <p>Only millisecond-precise times are used: the {@code SGLANG_LOG_MS} prefix (v0.5.6+), the
 * {@code timestamp:} field (v0.4.9.post1 – post2) or an embedder's prefix with milliseconds. A
 * second-precision line never yields a step time and breaks the chain (±25 ms per step at 40 steps
 * would be noise, docs/formats/sglang.md#what-the-logs-give). Not thread-safe.
 */
final class DecodeStepTimer {
  /** SGLang's default {@code --decode-log-interval} (docs/formats/sglang.md#logging-options). */
  static final int DECODE_LOG_INTERVAL = 40;

  private static final double MICROS_PER_MILLI = 1_000.0;

  /** Per stream (the rank, "" when none): epoch microseconds of the last precise Decode line. */
  private final Map<String, long[]> lastDecode = new HashMap<>();

  /** The last stream looked up: Decode lines of one rank usually follow each other. */
  private @Nullable String lastKey;

  private long @Nullable [] lastTimes;

  /**
   * The step time derived for a Decode line of {@code stream} at {@code ts}, or null when there is
   * no precise previous line of the same stream; remembers this line for the next one.
   */
  @Nullable Double next(@Nullable String stream, @Nullable Instant ts, boolean millisPrecise) {
    String key = stream == null ? "" : stream;
    if (ts == null || !millisPrecise) {
      lastDecode.remove(key);
      lastKey = null;
      return null;
    }
    long micros = ts.getEpochSecond() * 1_000_000L + ts.getNano() / 1_000;
    long[] previous = key == lastKey ? lastTimes : lastDecode.get(key);
    if (previous == null) {
      previous = new long[] {micros};
      lastDecode.put(key, previous);
      remember(key, previous);
      return null;
    }
    remember(key, previous);
    long elapsed = micros - previous[0];
    previous[0] = micros;
    return elapsed > 0 ? elapsed / MICROS_PER_MILLI / DECODE_LOG_INTERVAL : null;
  }

  private void remember(String key, long[] times) {
    lastKey = key;
    lastTimes = times;
  }

  /** A server (re)start: windows never span it. */
  void reset() {
    lastDecode.clear();
    lastKey = null;
    lastTimes = null;
  }
}
