package dev.tokentrace.measure;

import java.util.Arrays;
import java.util.Collection;

/**
 * The project's one percentile definition, the one every report number uses: DuckDB's {@code
 * quantile_cont} (docs/design.md#percentiles). The q-quantile of n sorted values sits at rank
 * {@code (n - 1) * q} counted from 0; between two ranks it is interpolated linearly. This is also
 * numpy's default ({@code linear}), so the simulator's vLLM bench summaries match vLLM's own.
 *
 * <p>Java code that prints a percentile uses this class, so a P95 printed by {@code loadgen}, the
 * simulator or a benchmark equals the P95 the report computes in SQL from the same values.
 */
public final class Quantiles {
  private Quantiles() {}

  /**
   * The {@code q}-quantile of values sorted ascending, as {@code quantile_cont(x, q)}.
   *
   * @param q between 0 and 1 (0 = minimum, 1 = maximum)
   * @throws IllegalArgumentException when there are no values or q is outside [0, 1]
   */
  public static double ofSorted(double[] sorted, double q) {
    return ofSorted(sorted, sorted.length, q);
  }

  /** As {@link #ofSorted(double[], double)} over the first {@code count} values. */
  public static double ofSorted(double[] sorted, int count, double q) {
    if (count <= 0) {
      throw new IllegalArgumentException("no values");
    }
    if (!(q >= 0 && q <= 1)) {
      throw new IllegalArgumentException("quantile must be within [0, 1]: " + q);
    }
    double rank = (count - 1) * q;
    int low = (int) Math.floor(rank);
    int high = (int) Math.ceil(rank);
    if (low == high) {
      return sorted[low];
    }
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
  }

  /** The {@code q}-quantile of values in any order (they are copied and sorted). */
  public static double of(Collection<Double> values, double q) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    return ofSorted(sorted, q);
  }
}
