package dev.tokentrace.event.json;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

final class EventJsonTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-02-13T11:33:33.000Z",
        "2026-02-13T11:33:33.123Z",
        "1970-01-01T00:00:00.000Z",
        "2024-02-29T23:59:59.999Z",
        "9999-12-31T23:59:59.999Z"
      })
  void readsTheCanonicalShapeLikeInstantParse(String text) {
    assertThat(EventJson.parseCanonical(text)).isEqualTo(Instant.parse(text));
    assertThat(EventJson.TIMESTAMP.format(EventJson.parseCanonical(text))).isEqualTo(text);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-02-30T11:33:33.000Z",
        "2026-13-13T11:33:33.000Z",
        "2026-02-13T24:33:33.000Z",
        "2026-02-13T11:33:33Z",
        "2026-02-13T11:33:33.000+01:00",
        "2026-02-13 11:33:33.000Z",
        "2026-02-13T11:3x:33.000Z",
        ""
      })
  void leavesEveryOtherShapeToInstantParse(String text) {
    assertThat(EventJson.parseCanonical(text)).isNull();
  }

  @Test
  void formatsLikeTheFormatterEverywhere() {
    List<Instant> instants =
        new ArrayList<>(
            List.of(
                Instant.EPOCH,
                Instant.parse("2026-02-13T11:33:33.999999999Z"),
                Instant.parse("1969-12-31T23:59:59.999Z"),
                Instant.parse("1000-01-01T00:00:00Z"),
                Instant.parse("0999-12-31T23:59:59.999Z"),
                Instant.parse("9999-12-31T23:59:59.999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("2024-02-29T12:00:00.001Z")));
    Random random = new Random(42);
    long span = Instant.parse("+12000-01-01T00:00:00Z").getEpochSecond();
    for (int i = 0; i < 100_000; i++) {
      instants.add(
          Instant.ofEpochSecond(
              (long) ((random.nextDouble() * 2 - 1) * span), random.nextInt(1_000_000_000)));
    }
    for (Instant instant : instants) {
      assertThat(EventJson.formatCanonical(instant))
          .as(instant.toString())
          .isEqualTo(EventJson.TIMESTAMP.format(instant));
    }
  }
}
