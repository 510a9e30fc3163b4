package dev.tokentrace.report.model;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Clock offsets read in a person's unit, never as thirteen-digit milliseconds. */
final class NumbersTest {
  @Test
  void offsetsPickAReadableUnit() {
    assertThat(Numbers.offset(1.05)).isEqualTo("+1.1 ms");
    assertThat(Numbers.offset(-2_500)).isEqualTo("-2.50 s");
    assertThat(Numbers.offset(10_800_041)).isEqualTo("+3.00 h");
    assertThat(Numbers.offset(-900_000)).isEqualTo("-15.0 min");
    // a steady clock against a wall clock: decades, in days
    assertThat(Numbers.offset(-1_760_386_915_907.0)).isEqualTo("-20374.8 days");
  }
}
