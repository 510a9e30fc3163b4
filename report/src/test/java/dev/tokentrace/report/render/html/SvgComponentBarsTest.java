package dev.tokentrace.report.render.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.report.model.ComponentKind;
import dev.tokentrace.report.model.ReportData;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The percentile bars stack each part's own percentile, which can pass the total's marker; the
 * chart then says why (docs/reports.md#percentiles-do-not-add).
 */
final class SvgComponentBarsTest {
  @Test
  void saysWhyABarPassesItsTotalMarker() {
    // the slowest queueing and the slowest decode are in different requests: P95s of 900 + 800
    // against a total P95 of 1000
    String svg =
        SvgComponentBars.percentiles(
            List.of(
                row(ComponentKind.QUEUE.id(), 100, 500, 900, 950),
                row(ComponentKind.DECODE.id(), 200, 300, 800, 850),
                row("total", 300, 800, 1000, 1900)));
    assertThat(svg)
        .contains(
            "At P95 the parts add up to more than the total ▼: percentiles do not add (each"
                + " part&#39;s percentile comes from different requests).")
        .doesNotContain("At P50");
  }

  @Test
  void saysNothingWhenNoBarPassesItsMarker() {
    String svg =
        SvgComponentBars.percentiles(
            List.of(
                row(ComponentKind.QUEUE.id(), 100, 200, 300, 400),
                row(ComponentKind.DECODE.id(), 200, 300, 400, 500),
                row("total", 300, 500, 700, 900)));
    assertThat(svg).doesNotContain("percentiles do not add");
  }

  private static ReportData.Component row(
      String component, double p50, double p90, double p95, double p99) {
    return new ReportData.Component(
        "overall", null, component, 10, p50, p90, p95, p99, p50, 0.5, 5, null, null);
  }
}
