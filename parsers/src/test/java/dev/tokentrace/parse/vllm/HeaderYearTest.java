package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.parse.ParseSettings;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Year and zone for vLLM's {@code MM-DD HH:MM:SS} (docs/formats/vllm.md#record-header). */
final class HeaderYearTest {
  private static final String STATS = "Running: 1 reqs, Waiting: 0 reqs";

  private static String line(String monthDayTime) {
    return "INFO " + monthDayTime + " [loggers.py:72] " + STATS;
  }

  private static List<Instant> times(ParseSettings settings, String... monthDayTimes) {
    String[] lines = new String[monthDayTimes.length];
    for (int i = 0; i < lines.length; i++) {
      lines[i] = line(monthDayTimes[i]);
    }
    RecordingSink sink = RecordingSink.parse(new VllmLineParser(settings), lines);
    assertThat(sink.rejections).isEmpty();
    return sink.events.stream().map(EngineEvent::ts).toList();
  }

  @Test
  void addsAYearWhenDecemberRollsOverToJanuary() {
    assertThat(times(RecordingSink.SETTINGS, "12-31 23:59:58", "01-01 00:00:03"))
        .containsExactly(
            Instant.parse("2026-12-31T23:59:58Z"), Instant.parse("2027-01-01T00:00:03Z"));
  }

  @Test
  void keepsALateDecemberLineAfterTheRolloverInTheOldYear() {
    assertThat(
            times(
                RecordingSink.SETTINGS,
                "12-31 23:59:59",
                "01-01 00:00:01",
                "12-31 23:59:59",
                "01-01 00:00:02"))
        .containsExactly(
            Instant.parse("2026-12-31T23:59:59Z"),
            Instant.parse("2027-01-01T00:00:01Z"),
            Instant.parse("2026-12-31T23:59:59Z"),
            Instant.parse("2027-01-01T00:00:02Z"));
  }

  @Test
  void keepsTheYearForSmallBackwardSteps() {
    assertThat(times(RecordingSink.SETTINGS, "05-19 10:13:11", "05-18 23:59:59", "06-01 00:00:00"))
        .containsExactly(
            Instant.parse("2026-05-19T10:13:11Z"),
            Instant.parse("2026-05-18T23:59:59Z"),
            Instant.parse("2026-06-01T00:00:00Z"));
  }

  @Test
  void rollsOverAcrossAGapOfTwoMonths() {
    assertThat(times(RecordingSink.SETTINGS, "11-30 12:00:00", "01-15 12:00:00"))
        .containsExactly(
            Instant.parse("2026-11-30T12:00:00Z"), Instant.parse("2027-01-15T12:00:00Z"));
  }

  @Test
  void convertsLocalTimeOfTheConfiguredZoneToUtc() {
    ParseSettings berlin = new ParseSettings("vllm-0", ZoneId.of("Europe/Berlin"), 2026);

    assertThat(times(berlin, "05-19 10:13:11", "01-05 10:13:11"))
        .containsExactly(
            Instant.parse("2026-05-19T08:13:11Z"), Instant.parse("2026-01-05T09:13:11Z"));
  }

  @Test
  void acceptsFebruaryTheTwentyNinthOnlyInALeapYear() {
    RecordingSink leap =
        RecordingSink.parse(
            new VllmLineParser(ParseSettings.of("vllm-0", 2028)), line("02-29 10:00:00"));
    RecordingSink common = RecordingSink.parse(line("02-29 10:00:00"));

    assertThat(leap.events)
        .singleElement()
        .extracting(EngineEvent::ts)
        .isEqualTo(Instant.parse("2028-02-29T10:00:00Z"));
    assertThat(common.reasons()).containsExactly("record header: bad timestamp");
  }
}
