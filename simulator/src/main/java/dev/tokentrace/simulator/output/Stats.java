package dev.tokentrace.simulator.output;

import dev.tokentrace.measure.Quantiles;
import java.util.Arrays;

/** Summary statistics the way numpy computes them (population std, linear percentiles). */
final class Stats {
  private double[] values = new double[64];
  private int count;

  void add(double value) {
    if (count == values.length) {
      values = Arrays.copyOf(values, count * 2);
    }
    values[count++] = value;
  }

  int count() {
    return count;
  }

  double mean() {
    double sum = 0;
    for (int i = 0; i < count; i++) {
      sum += values[i];
    }
    return count == 0 ? 0 : sum / count;
  }

  double std() {
    double mean = mean();
    double squares = 0;
    for (int i = 0; i < count; i++) {
      squares += (values[i] - mean) * (values[i] - mean);
    }
    return count == 0 ? 0 : Math.sqrt(squares / count);
  }

  /** numpy.percentile with linear interpolation, which is {@link Quantiles}; 0 when empty. */
  double percentile(double p) {
    if (count == 0) {
      return 0;
    }
    double[] sorted = Arrays.copyOf(values, count);
    Arrays.sort(sorted);
    return Quantiles.ofSorted(sorted, p / 100.0);
  }
}
