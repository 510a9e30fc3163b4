package dev.tokentrace.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

final class ArrivalsTest {
  @Test
  void constantRateSpacesRequestsEvenly() {
    Arrivals arrivals = new Arrivals(Arrivals.Kind.CONSTANT, 4, 1);

    assertThat(
            new long[] {
              arrivals.nextOffsetNanos(), arrivals.nextOffsetNanos(), arrivals.nextOffsetNanos()
            })
        .containsExactly(0, 250_000_000, 500_000_000);
  }

  @Test
  void poissonGapsAverageTheRateAndRepeatWithTheSeed() {
    Arrivals first = new Arrivals(Arrivals.Kind.POISSON, 100, 7);
    Arrivals again = new Arrivals(Arrivals.Kind.POISSON, 100, 7);
    long last = 0;
    int requests = 20_000;
    for (int i = 0; i < requests; i++) {
      long offset = first.nextOffsetNanos();
      assertThat(again.nextOffsetNanos()).isEqualTo(offset);
      assertThat(offset).isGreaterThanOrEqualTo(last);
      last = offset;
    }
    double meanGapMs = last / 1e6 / (requests - 1);
    assertThat(meanGapMs).isCloseTo(10.0, within(0.3));
  }

  @Test
  void theFirstRequestGoesAtOnce() {
    assertThat(new Arrivals(Arrivals.Kind.POISSON, 0.5, 3).nextOffsetNanos()).isZero();
  }

  @Test
  void parsesKindsAndRejectsOthers() {
    assertThat(Arrivals.Kind.of(" Poisson ")).isEqualTo(Arrivals.Kind.POISSON);
    assertThatThrownBy(() -> Arrivals.Kind.of("burst"))
        .hasMessage("--arrival 'burst' is not one of constant, poisson");
    assertThatThrownBy(() -> new Arrivals(Arrivals.Kind.CONSTANT, 0, 1))
        .hasMessage("--rate must be > 0: 0.0");
  }
}
