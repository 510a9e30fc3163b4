package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class DecimalsTest {
  @ParameterizedTest
  @CsvSource({
    "0, 0.000",
    "5, 0.005",
    "1234567, 1234.567",
    "-1500, -1.500",
    "1000, 1.000",
    "90, 0.090"
  })
  void millisHaveThreeDecimals(long us, String text) {
    assertThat(Decimals.millis(new StringBuilder(), us).toString()).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({
    "84100, 0.0841",
    "2000000, 2.0",
    "0, 0.0",
    "5, 0.000005",
    "1765270800251257, 1765270800.251257",
    "-30, -0.00003",
    "1200000, 1.2"
  })
  void secondsReadLikePythonRepr(long us, String text) {
    assertThat(Decimals.seconds(new StringBuilder(), us).toString()).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({"12300, 12.3", "38864, 38.864", "8000, 8.0", "7, 0.007"})
  void shortMillisStripTrailingZeros(long us, String text) {
    assertThat(Decimals.shortMillis(new StringBuilder(), us).toString()).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({
    "313.44, 1, 313.4",
    "0.75, 2, 0.75",
    "0.004, 2, 0.00",
    "99.999, 1, 100.0",
    "-2.25, 1, -2.3",
    "-0.01, 1, 0.0",
    "7, 0, 7"
  })
  void fixedRoundsHalfUpLikePercentF(double value, int decimals, String text) {
    assertThat(Decimals.fixed(new StringBuilder(), value, decimals).toString()).isEqualTo(text);
  }

  @ParameterizedTest
  @CsvSource({"0.25, 0.25", "0.0, 0.0", "121.2187794, 121.218779", "2.0, 2.0"})
  void sixDecimalsAreShortest(double value, String text) {
    assertThat(Decimals.sixDecimals(new StringBuilder(), value).toString()).isEqualTo(text);
  }
}
