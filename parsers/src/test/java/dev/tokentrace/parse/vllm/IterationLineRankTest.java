package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

/** The engine rank of an iteration line reads as the formatter wrote it before. */
final class IterationLineRankTest {
  @Test
  void rankIsZeroPaddedToThreeDigitsLikeFormat() {
    for (int index = 0; index < 20_000; index++) {
      assertThat(IterationLine.rank(index))
          .isEqualTo(String.format(Locale.ROOT, "Engine %03d", index));
    }
    assertThat(IterationLine.rank(Integer.MAX_VALUE))
        .isEqualTo(String.format(Locale.ROOT, "Engine %03d", Integer.MAX_VALUE));
  }

  @Test
  void processNamesGiveTheirRank() {
    assertThat(IterationLine.engineRank("EngineCore pid=12")).isEqualTo("Engine 000");
    assertThat(IterationLine.engineRank("EngineCore_DP3 pid=12")).isEqualTo("Engine 003");
    assertThat(IterationLine.engineRank("EngineCore_12")).isEqualTo("Engine 012");
    assertThat(IterationLine.engineRank("APIServer pid=1")).isNull();
    assertThat(IterationLine.engineRank(null)).isNull();
  }
}
