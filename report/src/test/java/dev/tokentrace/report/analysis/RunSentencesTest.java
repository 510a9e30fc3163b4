package dev.tokentrace.report.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Text;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Without a recorded concurrency level, the sentences say once that the +50% rule cannot apply and
 * none names a level (docs/reports.md#no-concurrency-level).
 */
final class RunSentencesTest {
  @Test
  void noSentenceNamesALevelWhenNoneIsRecorded() {
    RunFinding run =
        new RunFinding(
            "prod",
            10,
            10,
            10,
            null,
            null,
            null,
            null,
            null,
            List.of(window(null, null)),
            null,
            0,
            0,
            0);
    String sentences =
        RunSentences.of(run).stream().map(Text::plain).collect(Collectors.joining(" "))
            + " "
            + ConcurrencySeries.oneSeries(List.of(), null);

    assertThat(sentences)
        .contains("No concurrency level is recorded, so the +50% TTFT rule")
        .contains(
            "The server ran at most 4 requests at once while the client had up to 12 in flight"
                + " (queue length not recorded): the client's requests in flight are not the"
                + " server's batch.")
        .doesNotContain("n/a")
        .doesNotContain("At concurrency")
        .doesNotContain("client concurrency is not");
  }

  @Test
  void namesTheLevelWhenItIsRecorded() {
    assertThat(RunSentences.batch(window(8, 3)))
        .isEqualTo(
            "At concurrency 8 the server ran at most 4 requests at once while the client had up"
                + " to 12 in flight (queue up to 3): client concurrency is not the server's batch.");
  }

  private static ReportEvidence.BatchWindow window(Integer concurrency, Integer waiting) {
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    return new ReportEvidence.BatchWindow(
        "prod",
        concurrency,
        null,
        start,
        start.plusSeconds(10),
        10,
        8.0,
        12L,
        "prometheus",
        5,
        3.0,
        3.0,
        4,
        waiting == null ? null : 1.0,
        waiting,
        true);
  }
}
