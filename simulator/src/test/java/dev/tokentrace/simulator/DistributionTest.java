package dev.tokentrace.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

final class DistributionTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "fixed:512; fixed:512; 512; 512",
        "uniform:100,200; uniform:100,200; 100; 200",
        "lognormal:256,0.5; lognormal:256,0.5; 0; 1000000",
        "choice:64,512,2048; choice:64,512,2048; 64; 2048",
        " fixed: 1.5 ; fixed:1.5; 1.5; 1.5"
      })
  void parsesAndSamplesWithinRange(String spec, String normalized, double min, double max) {
    Distribution distribution = Distribution.parse(spec);
    SplittableRandom random = new SplittableRandom(1);

    assertThat(distribution.spec()).isEqualTo(normalized);
    for (int i = 0; i < 1000; i++) {
      assertThat(distribution.sample(random)).isBetween(min, max);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "fixed",
        "fixed:",
        "fixed:-1",
        "uniform:5",
        "uniform:9,1",
        "lognormal:0,1",
        "normal:1,2",
        "choice:a",
        "fixed:NaN"
      })
  void rejectsBadSpecsNamingTheAcceptedForms(String spec) {
    assertThatThrownBy(() -> Distribution.parse(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad distribution '" + spec + "'")
        .hasMessageContaining("lognormal:MEDIAN,SIGMA");
  }

  @ParameterizedTest
  @ValueSource(strings = {"lognormal:512,0.5", "uniform:1,9", "choice:1,2,3"})
  void sameSeedSameSamples(String spec) {
    Distribution distribution = Distribution.parse(spec);
    SplittableRandom first = new SplittableRandom(99);
    SplittableRandom second = new SplittableRandom(99);
    for (int i = 0; i < 100; i++) {
      assertThat(distribution.sample(first)).isEqualTo(distribution.sample(second));
    }
  }
}
