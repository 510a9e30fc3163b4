package dev.tokentrace.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class StartTimestampsTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2026-03-01T12:00:00Z            | 2026-03-01T12:00:00Z",
        "2026-03-01T12:00:00.123456Z     | 2026-03-01T12:00:00.123456Z",
        "2026-03-01T13:00:00+01:00       | 2026-03-01T12:00:00Z",
        "2026-03-01T07:00:00-05:00       | 2026-03-01T12:00:00Z",
        "2026-03-01 12:00:00.5Z          | 2026-03-01T12:00:00.500Z",
        // epoch, unit by magnitude: s (10 digits), ms (13), us (16), ns (19)
        "1772366400                      | 2026-03-01T12:00:00Z",
        "1772366400.25                   | 2026-03-01T12:00:00.250Z",
        "1772366400123                   | 2026-03-01T12:00:00.123Z",
        "1772366400123.5                 | 2026-03-01T12:00:00.123500Z",
        "1772366400123456                | 2026-03-01T12:00:00.123456Z",
        "1772366400123456789             | 2026-03-01T12:00:00.123456789Z",
        "946684800                       | 2000-01-01T00:00:00Z",
        "' 1772366400 '                  | 2026-03-01T12:00:00Z",
      })
  void parses(String raw, String expected) throws BadField {
    assertThat(StartTimestamps.parse(raw)).isEqualTo(Instant.parse(expected));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2026-03-01T12:00:00     | bad 'start_ts' value \"2026-03-01T12:00:00\" (no zone: add Z or an offset)",
        "yesterday               | bad 'start_ts' value \"yesterday\"",
        "2026-13-01T12:00:00Z    | bad 'start_ts' value \"2026-13-01T12:00:00Z\"",
        // a monotonic clock reading (vLLM bench start_times) is not an epoch
        "353399.725848632        | bad 'start_ts' value \"353399.725848632\" (epoch not in 2000-2099 as s, ms, us or ns)",
        "4102444800              | bad 'start_ts' value \"4102444800\" (epoch not in 2000-2099 as s, ms, us or ns)",
        "-1772366400             | bad 'start_ts' value \"-1772366400\"",
        "''                      | missing value for 'start_ts'",
      })
  void rejects(String raw, String reason) {
    assertThatThrownBy(() -> StartTimestamps.parse(raw))
        .isInstanceOf(BadField.class)
        .hasMessage(reason);
  }
}
