package dev.tokentrace.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

final class TableAppenderTest {
  @Test
  void convertsInstantsToEpochMicrosTruncatingNanos() {
    assertThat(TableAppender.epochMicros(Instant.EPOCH)).isZero();
    assertThat(TableAppender.epochMicros(Instant.parse("2026-02-13T11:33:33.123456789Z")))
        .isEqualTo(1_770_982_413_123_456L);
    assertThat(TableAppender.epochMicros(Instant.parse("1969-12-31T23:59:59.999999Z")))
        .isEqualTo(-1L);
  }
}
