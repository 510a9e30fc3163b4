package dev.tokentrace.correlate.attribution;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * One side's requests in time order, for aligning two clocks without IDs: the client's sends (ms on
 * its own clock; TTFT and e2e counted from the send) or a server's arrivals (ms on its steady
 * clock; its TTFT and e2e). A missing duration is NaN and constrains nothing. Immutable: the arrays
 * are copied in and never handed out.
 */
final class TimeSeries {
  private final double[] atMs;
  private final double[] ttftMs;
  private final double[] e2eMs;

  /**
   * @throws IllegalArgumentException when the lengths differ or the times are not finite and in
   *     ascending order
   */
  TimeSeries(double[] atMs, double[] ttftMs, double[] e2eMs) {
    if (atMs.length != ttftMs.length || atMs.length != e2eMs.length) {
      throw new IllegalArgumentException(
          "series lengths differ: at "
              + atMs.length
              + ", ttft "
              + ttftMs.length
              + ", e2e "
              + e2eMs.length);
    }
    for (int i = 0; i < atMs.length; i++) {
      if (!Double.isFinite(atMs[i]) || (i > 0 && atMs[i] < atMs[i - 1])) {
        throw new IllegalArgumentException("atMs must be finite and ascending at index " + i);
      }
    }
    this.atMs = atMs.clone();
    this.ttftMs = ttftMs.clone();
    this.e2eMs = e2eMs.clone();
  }

  int size() {
    return atMs.length;
  }

  double at(int index) {
    return atMs[index];
  }

  double ttft(int index) {
    return ttftMs[index];
  }

  double e2e(int index) {
    return e2eMs[index];
  }

  /** Index of the first time at or after {@code time} ({@link #size()} when none). */
  int firstAtOrAfter(double time) {
    int index = Arrays.binarySearch(atMs, time);
    if (index < 0) {
      return -index - 1;
    }
    while (index > 0 && atMs[index - 1] == time) {
      index--;
    }
    return index;
  }

  /** One request: its time and durations (NaN where unknown). */
  record Point(double atMs, double ttftMs, double e2eMs) {}

  /** The points in time order, whatever order they come in. */
  static TimeSeries of(List<Point> points) {
    List<Point> sorted = new ArrayList<>(points);
    sorted.sort(Comparator.comparingDouble(Point::atMs));
    double[] at = new double[sorted.size()];
    double[] ttft = new double[sorted.size()];
    double[] e2e = new double[sorted.size()];
    for (int i = 0; i < at.length; i++) {
      at[i] = sorted.get(i).atMs();
      ttft[i] = sorted.get(i).ttftMs();
      e2e[i] = sorted.get(i).e2eMs();
    }
    return new TimeSeries(at, ttft, e2e);
  }
}
