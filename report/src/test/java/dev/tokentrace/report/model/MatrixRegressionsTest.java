package dev.tokentrace.report.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class MatrixRegressionsTest {
  @Test
  void readsTheGrowthPerDoublingHoldingTheOtherDimensionsFixed() {
    List<ReportEvidence.MatrixRow> rows = new ArrayList<>();
    for (int output : new int[] {64, 512}) {
      for (int concurrency : new int[] {1, 2, 4, 8}) {
        // ITL × 1.5 per doubling of concurrency, whatever the output length (its own level);
        // TTFT × 2 per doubling of output (not what the method expects, but a clear number)
        double itl = (output == 64 ? 10 : 20) * Math.pow(1.5, log2(concurrency));
        double ttft = 100 * Math.pow(2, log2(output / 64.0)) + concurrency * 0.0;
        rows.add(row(output, concurrency, ttft, itl));
      }
    }
    List<MatrixRegressions.Regression> fitted = MatrixRegressions.of(rows);
    assertThat(fitted)
        .extracting(r -> r.metric() + " ~ " + r.dimension())
        .containsExactly("itl ~ concurrency", "ttft ~ output");
    assertThat(fitted.get(0).factorPerDoubling()).isCloseTo(1.5, offset(1e-9));
    assertThat(fitted.get(0).cells()).isEqualTo(8);
    assertThat(fitted.get(0).groups()).isEqualTo(2);
    assertThat(fitted.get(1).factorPerDoubling()).isCloseTo(2.0, offset(1e-9));
    assertThat(fitted.get(1).percentPerDoubling()).isCloseTo(100.0, offset(1e-6));
  }

  @Test
  void aDimensionSweptAtOneLevelGivesNoRegression() {
    assertThat(MatrixRegressions.of(List.of(row(64, 4, 100, 10)))).isEmpty();
  }

  private static double log2(double value) {
    return Math.log(value) / Math.log(2);
  }

  private static ReportEvidence.MatrixRow row(
      int output, int concurrency, double ttft, double itl) {
    return new ReportEvidence.MatrixRow(
        "sweep",
        "prompt=128 output=" + output + " concurrency=" + concurrency,
        128,
        output,
        concurrency,
        6,
        ttft,
        ttft * 1.2,
        itl,
        itl * 1.2,
        null,
        null,
        1.0,
        6.0,
        6.0 * output);
  }
}
