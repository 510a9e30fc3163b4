package dev.tokentrace.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

final class QuantilesTest {
  @Test
  void interpolatesBetweenRanksAsQuantileContDoes() {
    // quantile_cont([1, 2, 4, 8], 0.5) = 3.0; 0.9 -> rank 2.7 -> 4 + 0.7 * 4 = 6.8
    List<Double> values = List.of(8.0, 1.0, 4.0, 2.0);
    assertThat(Quantiles.of(values, 0.5)).isEqualTo(3.0);
    assertThat(Quantiles.of(values, 0.9)).isCloseTo(6.8, within(1e-12));
  }

  @Test
  void theEndsAreTheMinimumAndMaximum() {
    double[] sorted = {1, 2, 4, 8};
    assertThat(Quantiles.ofSorted(sorted, 0)).isEqualTo(1);
    assertThat(Quantiles.ofSorted(sorted, 1)).isEqualTo(8);
    assertThat(Quantiles.ofSorted(new double[] {5}, 0.95)).isEqualTo(5);
  }

  @Test
  void refusesNoValuesAndQuantilesOutsideZeroToOne() {
    assertThatThrownBy(() -> Quantiles.ofSorted(new double[0], 0.5))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Quantiles.ofSorted(new double[] {1}, 95))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
