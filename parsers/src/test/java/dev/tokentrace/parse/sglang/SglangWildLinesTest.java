package dev.tokentrace.parse.sglang;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.ServerNotice;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Custom logging formats that move SGLang's rank tags into the logger field
 * (docs/formats/sglang-wild.md#rank-in-logger-field): the rank is kept wherever the field stands.
 * Lines composed by us to those formats.
 */
final class SglangWildLinesTest {
  private static final String DECODE =
      "Decode batch. #running-req: 1, #token: 10, token usage: 0.00, gen throughput (token/s):"
          + " 1.00, #queue-req: 0";
  private static final String TAIL =
      " phase=decode batch_size=1 queued=0 token_usage=0.0 throughput_tps=1.0"
          + " step_ms_derived=false";

  static Stream<Arguments> formats() {
    return Stream.of(
        Arguments.of(
            "location inside SGLang's bracket",
            "[2026-01-02 15:04:05 DP9 TP9 EP9 scheduler.py:860] " + DECODE,
            "batch_step ts=2026-01-02T15:04:05.000Z rank='DP9 TP9 EP9'" + TAIL),
        Arguments.of(
            "date-only prefix, then the logger field",
            "[2026-01-02 15:04:05] [DP9 TP9 EP9 scheduler.py:860] " + DECODE,
            "batch_step ts=2026-01-02T15:04:05.000Z rank='DP9 TP9 EP9'" + TAIL),
        Arguments.of(
            "date-only prefix, level, logger field",
            "[2026-01-02 15:04:05.250] INFO [TP3 scheduler.py:860] " + DECODE,
            "batch_step ts=2026-01-02T15:04:05.250Z rank=TP3" + TAIL),
        Arguments.of(
            "embedder's time and level, logger field",
            "2026-01-02 15:04:05 INFO [DP9 TP9 EP9 scheduler.py:860] " + DECODE,
            "batch_step ts=2026-01-02T15:04:05.000Z rank='DP9 TP9 EP9'" + TAIL),
        Arguments.of(
            "embedder's format with dashes",
            "2026-01-02 15:04:05,123 - INFO - [DP0 TP1 scheduler.py:860] " + DECODE,
            "batch_step ts=2026-01-02T15:04:05.123Z rank='DP0 TP1'" + TAIL),
        Arguments.of(
            "logger field only",
            "[DP9 TP9 EP9 scheduler.py:860] " + DECODE,
            "batch_step rank='DP9 TP9 EP9'" + TAIL),
        Arguments.of(
            "rank tags without location",
            "[2026-01-02 15:04:05] [PP1 TP2] " + DECODE,
            "batch_step ts=2026-01-02T15:04:05.000Z rank='PP1 TP2'" + TAIL));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("formats")
  void keepsTheRank(String name, String line, String expected) {
    RecordingSink sink = SglangLineParserTest.parse(line);

    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.events).hasSize(1);
    assertThat(EventDescriptions.of(sink.events.get(0))).isEqualTo(expected);
  }

  /**
   * A known SGLang bug logs a negative count: the step is still made with the field empty, and one
   * data-quality notice per source and field says so (docs/formats/layouts.md#odd-values).
   */
  @Test
  void aNegativeCountMakesTheStepAndOneDataQualityNotice() {
    String line =
        "[2026-01-02 15:04:05] [DP9 TP9 EP9 scheduler.py:860] "
            + DECODE.replace("#running-req: 1", "#running-req: -1");
    RecordingSink sink = SglangLineParserTest.parse(line, line);

    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.events).hasSize(3);
    assertThat(EventDescriptions.of(sink.events.get(0)))
        .isEqualTo(
            "batch_step ts=2026-01-02T15:04:05.000Z rank='DP9 TP9 EP9'"
                + TAIL.replace(" batch_size=1", ""));
    assertThat(sink.events.get(1)).isInstanceOf(ServerNotice.class);
    ServerNotice notice = (ServerNotice) sink.events.get(1);
    assertThat(notice.kind()).isEqualTo(ServerNotice.Kind.DATA_QUALITY);
    assertThat(notice.message()).contains("'#running-req: -1' is not a count");
    assertThat(sink.events.get(2)).isInstanceOf(BatchStep.class);
  }

  /** The mixed-chunk header and the other counts follow the same rule. */
  @Test
  void negativeCountsElsewhereAreOddValuesToo() {
    RecordingSink sink =
        SglangLineParserTest.parse(
            "[2026-01-02 15:04:05] Prefill batch(mixed #running-req: -3). #new-seq: 1",
            "[2026-01-02 15:04:06] Prefill batch. #new-seq: 1, #cached-token: -1");

    assertThat(sink.reasons()).isEmpty();
    assertThat(sink.events)
        .extracting(event -> event.getClass().getSimpleName())
        .containsExactly("BatchStep", "ServerNotice", "BatchStep", "ServerNotice");
  }

  /** A non-numeric or huge count stays a rejection. */
  @Test
  void aBrokenCountStaysARejection() {
    RecordingSink sink =
        SglangLineParserTest.parse(
            "[2026-01-02 15:04:05] " + DECODE.replace("#running-req: 1", "#running-req: -x"));

    assertThat(sink.events).isEmpty();
    assertThat(sink.reasons()).containsExactly("batch line: bad '#running-req' value");
  }
}
