package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

final class WallClockTest {
  private static final Instant START = Instant.parse("2025-12-31T23:59:59.250Z");

  @Test
  void printsEachEngineShapeInTheGivenZone() {
    WallClock utc = new WallClock(START, ZoneOffset.UTC);
    WallClock berlin = new WallClock(START, ZoneId.of("Europe/Berlin"));

    assertThat(text(b -> utc.monthDayTime(b, 0))).isEqualTo("12-31 23:59:59");
    assertThat(text(b -> berlin.monthDayTime(b, 0))).isEqualTo("01-01 00:59:59");
    assertThat(text(b -> utc.dateTime(b, 1_000_000, true))).isEqualTo("2026-01-01 00:00:00.250");
    assertThat(text(b -> utc.dateTime(b, 1_000_000, false))).isEqualTo("2026-01-01 00:00:00");
    assertThat(text(b -> utc.slashDateTime(b, 0))).isEqualTo("12/31/2025-23:59:59");
    assertThat(text(b -> utc.dashedMicros(b, 7))).isEqualTo("12-31-2025 23:59:59.250007");
    assertThat(text(b -> utc.isoMicros(b, 750_000))).isEqualTo("2026-01-01T00:00:00.000000Z");
    assertThat(utc.hourKey(3_600_000_000L)).isEqualTo("20260101_00");
    assertThat(utc.epochUs(1)).isEqualTo(START.toEpochMilli() * 1000 + 1);
  }

  @Test
  void timesBeforeTheStartWork() {
    WallClock utc = new WallClock(START, ZoneOffset.UTC);

    assertThat(text(b -> utc.dateTime(b, -42_000_000, true))).isEqualTo("2025-12-31 23:59:17.250");
  }

  private static String text(java.util.function.Consumer<StringBuilder> print) {
    StringBuilder out = new StringBuilder();
    print.accept(out);
    return out.toString();
  }
}
