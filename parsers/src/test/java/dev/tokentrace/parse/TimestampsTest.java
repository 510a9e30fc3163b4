package dev.tokentrace.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every format of docs/formats/timestamps.md#formats through the one reader. */
final class TimestampsTest {
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static Timestamps.Local utc() {
    return new Timestamps.Local(ZoneOffset.UTC, 2026);
  }

  @Test
  void readsEachEnginesLocalFormatInTheConfiguredZone() {
    Timestamps.Local clock = new Timestamps.Local(BERLIN, 2026);
    String iso = "2026-05-19 10:13:11.250";
    assertThat(clock.isoLocal(iso, 0, Timestamps.isoLocalLength(iso, 0)))
        .isEqualTo(Instant.parse("2026-05-19T08:13:11.250Z"));
    assertThat(clock.trtllmPythonHeader("[05/19/2026-10:13:11] x", 1))
        .isEqualTo(Instant.parse("2026-05-19T08:13:11Z"));
    assertThat(clock.trtllmIterationLog("2026-01-05 10:13:11", 0, 19))
        .isEqualTo(Instant.parse("2026-01-05T09:13:11Z"));
    assertThat(clock.trtllmStats("01-05-2026 10:13:11.000123"))
        .isEqualTo(Instant.parse("2026-01-05T09:13:11.000123Z"));
    assertThat(clock.trtllmStats("01-05-2026 10:13:11"))
        .isEqualTo(Instant.parse("2026-01-05T09:13:11Z"));
    assertThat(clock.tritonGlog("I0105 10:13:11.000042 1 server.cc:1]", 1))
        .isEqualTo(Instant.parse("2026-01-05T09:13:11.000042Z"));
    assertThat(clock.ofYearless(5, 19, Timestamps.secondOfDay(10, 13, 11), 0))
        .isEqualTo(Instant.parse("2026-05-19T08:13:11Z"));
  }

  @Test
  void isoLocalTakesATOrASpaceAndADotOrCommaFraction() {
    assertThat(Timestamps.isoLocalLength("2025-12-04 20:35:53,123 INFO", 0)).isEqualTo(23);
    assertThat(Timestamps.isoLocalLength("2025-12-04T20:35:53.123456789", 0)).isEqualTo(29);
    assertThat(Timestamps.isoLocalLength("2025-12-04T20:35:53.1234567890", 0)).isEqualTo(19);
    assertThat(Timestamps.isoLocalLength("2025-12-04T20:35:53.", 0)).isEqualTo(19);
    assertThat(Timestamps.isoLocalLength("2025-12-04_20:35:53", 0)).isEqualTo(-1);
    assertThat(Timestamps.isoLocalLength("[2025-12-04 20:35", 1)).isEqualTo(-1);
    assertThat(Timestamps.isoFractionDigits(23)).isEqualTo(3);
  }

  @ParameterizedTest
  @CsvSource({
    "2026-02-29 10:00:00", // not a leap year
    "2026-13-01 10:00:00",
    "2026-04-31 10:00:00",
    "2026-05-19 24:00:00",
    "2026-05-19 10:60:00",
    "2026-05-19 10:00:60",
    "1969-12-31 23:59:59"
  })
  void aTimeThatDoesNotExistIsNull(String text) {
    assertThat(utc().isoLocal(text, 0, Timestamps.isoLocalLength(text, 0))).isNull();
  }

  @Test
  void malformedEngineShapesAreNull() {
    Timestamps.Local clock = utc();
    assertThat(clock.trtllmPythonHeader("[05-19-2026-10:13:11]", 1)).isNull();
    assertThat(clock.trtllmStats("01-05-2026 10:13:11.")).isNull();
    assertThat(clock.trtllmStats("01-05-2026 10:13:11,5")).isNull();
    assertThat(clock.trtllmStats("01-05-2026 10:13:11.1234567890")).isNull();
    assertThat(clock.trtllmIterationLog("2026-01-05T10:13:11", 0, 19)).isNull();
    assertThat(clock.tritonGlog("I1305 10:13:11.000042 1 a.cc:1]", 1)).isNull();
    assertThat(clock.tritonGlog("I0105 10:13:11.00004x 1 a.cc:1]", 1)).isNull();
  }

  @Test
  void yearlessDatesRollOverOnABigBackwardJumpOnly() {
    Timestamps.Local clock = utc();
    assertThat(clock.tritonGlog("I1231 23:59:59.000000", 1))
        .isEqualTo(Instant.parse("2026-12-31T23:59:59Z"));
    assertThat(clock.tritonGlog("I0101 00:00:01.000000", 1))
        .isEqualTo(Instant.parse("2027-01-01T00:00:01Z"));
    // a late line from before the rollover keeps the old year without moving the clock
    assertThat(clock.tritonGlog("I1231 23:59:59.500000", 1))
        .isEqualTo(Instant.parse("2026-12-31T23:59:59.5Z"));
    assertThat(clock.tritonGlog("I0101 00:00:02.000000", 1))
        .isEqualTo(Instant.parse("2027-01-01T00:00:02Z"));
  }

  @Test
  void ranksWritingOutOfOrderAcrossAMonthsEndKeepTheYear() {
    Timestamps.Local clock = utc();
    clock.tritonGlog("I0201 00:00:00.100000", 1);
    assertThat(clock.tritonGlog("I0131 23:59:59.900000", 1))
        .isEqualTo(Instant.parse("2026-01-31T23:59:59.9Z"));
    assertThat(clock.tritonGlog("I0201 00:00:01.000000", 1))
        .isEqualTo(Instant.parse("2026-02-01T00:00:01Z"));
  }

  @Test
  void anInvalidYearlessDateDoesNotMoveTheYear() {
    Timestamps.Local clock = utc();
    clock.ofYearless(12, 31, 0, 0);
    assertThat(clock.ofYearless(2, 30, 0, 0)).isNull();
    assertThat(clock.ofYearless(12, 30, 0, 0)).isEqualTo(Instant.parse("2026-12-30T00:00:00Z"));
  }

  @Test
  void timeOnlyLinesTakeTheLastFullDateAndCrossMidnight() {
    Timestamps.Local clock = utc();
    assertThat(clock.ofTimeOnly(Timestamps.secondOfDay(23, 0, 0), 0)).isNull();
    clock.of(2026, 5, 19, Timestamps.secondOfDay(23, 59, 58), 0);
    assertThat(clock.ofTimeOnly(Timestamps.secondOfDay(23, 59, 59), 0))
        .isEqualTo(Instant.parse("2026-05-19T23:59:59Z"));
    assertThat(clock.ofTimeOnly(Timestamps.secondOfDay(0, 0, 1), 0))
        .isEqualTo(Instant.parse("2026-05-20T00:00:01Z"));
  }

  @Test
  void daylightSavingOverlapTakesTheEarlierOffsetAndAGapTheOffsetBefore() {
    Timestamps.Local clock = new Timestamps.Local(BERLIN, 2026);
    // 2026-10-25 02:30 happens twice in Berlin: the first (CEST, +02:00)
    assertThat(clock.of(2026, 10, 25, Timestamps.secondOfDay(2, 30, 0), 0))
        .isEqualTo(Instant.parse("2026-10-25T00:30:00Z"));
    // 2026-03-29 02:30 does not exist: the offset before the gap (CET, +01:00)
    assertThat(clock.of(2026, 3, 29, Timestamps.secondOfDay(2, 30, 0), 0))
        .isEqualTo(Instant.parse("2026-03-29T01:30:00Z"));
  }

  @ParameterizedTest
  @CsvSource({
    "2026-05-19T10:13:11Z, 2026-05-19T10:13:11Z",
    "2026-05-19 10:13:11.5+02:00, 2026-05-19T08:13:11.5Z",
    "1779185591, 2026-05-19T10:13:11Z",
    "1779185591.25, 2026-05-19T10:13:11.250Z",
    "1779185591250, 2026-05-19T10:13:11.250Z",
    "1779185591250001, 2026-05-19T10:13:11.250001Z",
    "1779185591250001999, 2026-05-19T10:13:11.250001999Z"
  })
  void clientStartsAreZonedIsoOrEpochInTheOneUnitThatFits(String text, String expected)
      throws Timestamps.BadTimestamp {
    assertThat(Timestamps.zonedOrEpoch(text)).isEqualTo(Instant.parse(expected));
  }

  @Test
  void clientStartsOutsideTheWindowsOrWithoutAZoneSayWhy() {
    assertThatThrownBy(() -> Timestamps.zonedOrEpoch("123456"))
        .isInstanceOf(Timestamps.BadTimestamp.class)
        .hasMessage("epoch not in 2000-2099 as s, ms, us or ns");
    assertThatThrownBy(() -> Timestamps.zonedOrEpoch("2026-05-19T10:13:11"))
        .hasMessage("no zone: add Z or an offset");
    assertThatThrownBy(() -> Timestamps.zonedOrEpoch("yesterday"))
        .isInstanceOfSatisfying(
            Timestamps.BadTimestamp.class, e -> assertThat(e.reason()).isNull());
  }

  @Test
  void digitsAreReadInPlace() {
    assertThat(Timestamps.digits("ab0123", 2, 4)).isEqualTo(123);
    assertThat(Timestamps.digits("ab01x3", 2, 4)).isEqualTo(-1);
    assertThat(Timestamps.digits("12", 1, 2)).isEqualTo(-1);
    assertThat(Timestamps.digits("1234567890", 0, 10)).isEqualTo(-1);
    assertThat(Timestamps.fractionNanos(".25", 1, 2)).isEqualTo(250_000_000);
    assertThat(Timestamps.secondOfDay("23:59:59", 0)).isEqualTo(86_399);
    assertThat(Timestamps.secondOfDay("23:59", 0)).isEqualTo(-1);
  }
}
