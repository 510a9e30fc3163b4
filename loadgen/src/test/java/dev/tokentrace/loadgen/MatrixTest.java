package dev.tokentrace.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

final class MatrixTest {
  @Test
  void sweepsEveryCombinationConcurrencyFastestAndDefaultsTheDimensionsNotGiven() {
    Matrix matrix = Matrix.parse(List.of("output=64,512", "concurrency=1,4,8"), 200, 32, 2, 3);
    assertThat(matrix.prompts()).containsExactly(200);
    assertThat(matrix.cells())
        .extracting(Matrix.Cell::label)
        .containsExactly(
            "prompt=200 output=64 concurrency=1",
            "prompt=200 output=64 concurrency=4",
            "prompt=200 output=64 concurrency=8",
            "prompt=200 output=512 concurrency=1",
            "prompt=200 output=512 concurrency=4",
            "prompt=200 output=512 concurrency=8");
    assertThat(matrix.cells().get(1).idPart()).isEqualTo("p200-o64-c4");
    assertThat(Matrix.parse(List.of("prompt=100,200"), 1, 32, 2, 1).cells())
        .extracting(Matrix.Cell::promptTokens)
        .containsExactly(100, 200);
  }

  @Test
  void rejectsWhatIsNotAMatrix() {
    assertThatThrownBy(() -> Matrix.parse(List.of("latency=1,2"), 1, 1, 1, 1))
        .hasMessageContaining("is not DIMENSION=V1,V2");
    assertThatThrownBy(() -> Matrix.parse(List.of("output=64,x"), 1, 1, 1, 1))
        .hasMessageContaining("output values must be integers >= 1: 'x'");
    assertThatThrownBy(() -> Matrix.parse(List.of("concurrency=0"), 1, 1, 1, 1))
        .hasMessageContaining("integers >= 1");
    assertThatThrownBy(() -> Matrix.parse(List.of("output=8", "output=16"), 1, 1, 1, 1))
        .hasMessageContaining("output given twice");
    assertThatThrownBy(() -> Matrix.parse(List.of("output=8,8"), 1, 1, 1, 1))
        .hasMessageContaining("output 8 given twice");
    assertThatThrownBy(() -> Matrix.parse(List.of("output=8"), 1, 1, 1, 0))
        .hasMessageContaining("--rounds must be >= 1");
  }
}
