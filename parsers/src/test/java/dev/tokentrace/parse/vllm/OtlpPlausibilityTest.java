package dev.tokentrace.parse.vllm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Values no request can have are rejections with a reason, never events. */
final class OtlpPlausibilityTest {
  @ParameterizedTest(name = "{2}")
  @CsvSource(
      delimiter = '|',
      value = {
        // a negative latency
        "2.3332|-2.3332|otlp: negative 'gen_ai.latency.e2e' value",
        // a latency in ms written as seconds: 27 days
        "2.3332|2333200|otlp: implausible 'gen_ai.latency.e2e' value (longer than 7 days)",
        // a start at epoch 1 ns: a 56-year span, and a time before 2000
        "1779185591123456768|1|otlp: implausible span time 1970-01-01T00:00:00.000000001Z (not in"
            + " 2000-2099)",
        // a start in 1969 cannot be written (unsigned), one in 9999 overflows 64-bit nanoseconds
        "1779185591123456768|253402300799000000000|otlp: bad 'startTimeUnixNano' value",
        // an end before the start
        "1779185593456789000|1779185591000000000|otlp: span ends before it starts",
        // a start 130 years before the end is outside 2000-2099; a start 8 days before it is not
        "1779185591123456768|1778494391123456768|otlp: implausible span longer than 7 days",
      })
  void rejectsImplausibleTimes(String from, String to, String reason) {
    String line = OtlpLines.V1_LINE.replace(from, to);
    if (from.equals("1779185593456789000")) {
      // end before start: move the end, not the start
      line =
          OtlpLines.V1_LINE.replace(
              "\"endTimeUnixNano\":\"1779185593456789000\"",
              "\"endTimeUnixNano\":\"1779185591000000000\"");
    }
    RecordingSink sink = RecordingSink.parse(line);

    assertThat(sink.eventBodies()).isEmpty();
    assertThat(sink.reasons()).containsExactly(reason);
  }
}
