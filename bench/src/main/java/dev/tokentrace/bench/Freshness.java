package dev.tokentrace.bench;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When each line was written and when its row was first seen, by serial (1-based), in {@link
 * System#nanoTime()}. Thread-safe: one writer thread and one reader thread.
 */
final class Freshness {
  private final AtomicLongArray written;
  private final AtomicLongArray seen;

  Freshness(int capacity) {
    this.written = new AtomicLongArray(capacity + 1);
    this.seen = new AtomicLongArray(capacity + 1);
  }

  void written(long serial, long nanos) {
    if (serial < written.length()) {
      written.set((int) serial, nanos);
    }
  }

  void seen(long serial, long nanos) {
    if (serial < seen.length()) {
      seen.compareAndSet((int) serial, 0, nanos);
    }
  }

  /** Freshness in ms of the lines {@code first..last}, sorted; unseen lines are left out. */
  double[] window(long first, long last) {
    double[] latencies = new double[(int) Math.max(0, last - first + 1)];
    int count = 0;
    for (long serial = first; serial <= last && serial < seen.length(); serial++) {
      long wrote = written.get((int) serial);
      long saw = seen.get((int) serial);
      if (wrote != 0 && saw != 0) {
        latencies[count++] = (saw - wrote) / 1e6;
      }
    }
    double[] result = Arrays.copyOf(latencies, count);
    Arrays.sort(result);
    return result;
  }
}
