package dev.tokentrace.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.report.analysis.ReportAnalysis;
import dev.tokentrace.report.load.ReportDataLoader;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.render.markdown.MarkdownReportWriter;
import dev.tokentrace.store.rows.DataQuality;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * With several runs, the seed's FTL rule compares the concurrency levels of each run with each
 * other only: levels measured by different runs (different workloads) are never compared.
 */
final class RunConclusionTest {
  @Test
  void appliesTheRuleWithinTheOnlyRunThatVariesItsLevel() throws Exception {
    String report =
        render(
            List.of(
                level("sweep", 1, 100.0, 0.0, false),
                level("sweep", 8, 180.0, 80.0, true),
                level("big", 16, 9000.0, 0.0, false)));
    assertThat(report)
        .contains(
            "Over all 2 runs, decode takes the largest share, 60.0% of the end-to-end time of 10"
                + " attributed requests")
        .contains(
            "In run sweep, TTFT P50 goes from 100.0 ms at concurrency 1 to 180.0 ms at concurrency 8"
                + " (+80.0%), over the 50% threshold: under load, queueing, not compute, drives the"
                + " first-token latency (decode still takes the largest share of the end-to-end"
                + " time); tune scheduling and the maximum batch size for TTFT.")
        .doesNotContain("9000.0 ms at concurrency 16")
        .contains("- `sweep`: Decode takes 60.0% of the end-to-end time, queueing (server) 30.0%");
  }

  @Test
  void saysTheRuleCannotApplyWhenEachRunMeasuredOneLevel() throws Exception {
    // across runs, 1 -> 8 would read as +900%: a different workload, not queueing
    String report =
        render(List.of(level("small", 1, 100.0, 0.0, false), level("big", 8, 1000.0, 0.0, false)));
    assertThat(report)
        .contains(
            "Each run measured one concurrency level (1, 8), so the +50% TTFT rule (concurrency 1"
                + " against 8) cannot tell queueing from compute; add runs at both levels.")
        .doesNotContain("+900.0%");
  }

  @Test
  void countsTheRunsOverTheThresholdWhenSeveralVaryTheirLevel() throws Exception {
    String report =
        render(
            List.of(
                level("a", 1, 100.0, 0.0, false),
                level("a", 8, 300.0, 200.0, true),
                level("b", 1, 50.0, 0.0, false),
                level("b", 4, 55.0, 10.0, false)));
    assertThat(report)
        .contains(
            "TTFT P50 grows by more than 50% from the lowest level to 8 in 1 of the 2 runs that vary"
                + " the concurrency level (a +200.0% at 8; b +10.0% at 4): there, queueing, not"
                + " compute, drives the first-token latency under load;");
  }

  private static String render(List<ReportData.ConcurrencyLevel> levels) throws Exception {
    List<ReportData.Component> components = new ArrayList<>(shares("all", null));
    levels.stream()
        .map(ReportData.ConcurrencyLevel::groupValue)
        .distinct()
        .forEach(run -> components.addAll(shares("run", run)));
    ReportData data =
        new ReportData(
            "x.duckdb",
            Instant.parse("2026-03-01T13:00:00Z"),
            ReportDataLoader.rules(AttributionSettings.defaults()),
            List.of(),
            List.of(),
            List.of(),
            components,
            levels,
            new DataQuality(
                10, 10, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 10, 0, 0, 0, 0, 1.0, 0, 0, 0, 0,
                0, 0, 0, 0, 0),
            List.of());
    StringBuilder out = new StringBuilder();
    new MarkdownReportWriter().write(ReportAnalysis.of(data), out);
    return out.toString().replaceAll("\\s+", " ").replace("- `", "\n- `");
  }

  private static List<ReportData.Component> shares(String groupBy, String run) {
    return List.of(
        share(groupBy, run, "decode", 0.6),
        share(groupBy, run, "queue", 0.3),
        share(groupBy, run, "prefill", 0.1));
  }

  private static ReportData.Component share(
      String groupBy, String run, String component, double share) {
    return new ReportData.Component(
        groupBy, run, component, 10, 100.0, 200.0, 300.0, 400.0, 150.0, share, 3, run, null);
  }

  private static ReportData.ConcurrencyLevel level(
      String run, int concurrency, double ftlP50, double growth, boolean queueing) {
    return new ReportData.ConcurrencyLevel(
        "run",
        run,
        concurrency,
        10,
        ftlP50,
        null,
        ftlP50 * 2,
        5.0,
        9.0,
        0,
        growth,
        null,
        queueing,
        false,
        0,
        null,
        null,
        null,
        null);
  }
}
