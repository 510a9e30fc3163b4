package dev.tokentrace.report.render.html;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.Text;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class HtmlReportWriterTest {
  @TempDir Path dir;

  @Test
  void rendersTheHandComputedRunAsOnePageWithChartsAndTables() throws Exception {
    String html;
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      HandComputedDataset.load(database, dir);
      StringBuilder out = new StringBuilder();
      new ReportService(database, HandComputedDataset.CLOCK)
          .write(
              new ReportSettings(ReportFormat.HTML, AttributionSettings.defaults()),
              "tokentrace report --format html",
              out);
      html = out.toString();
    }
    assertThat(html)
        .startsWith("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
        .contains(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                + " style-src 'unsafe-inline'; img-src data:; script-src '"
                + HtmlReportWriter.scriptHash()
                + "'\">")
        .contains("<title>tokentrace report: :memory:</title>")
        .contains(
            "<div class=\"card\"><div class=\"k\">Attributed</div><div class=\"v\">4 / 12</div>"
                + "<div class=\"s\">join rate 83.3%</div></div>")
        .contains(
            "<tr><td>decode</td><td class=\"n\">250.0</td><td class=\"n\">470.0</td>"
                + "<td class=\"n\">485.0</td><td class=\"n\">497.0</td><td class=\"n\">57.1%</td>"
                + "<td class=\"n\">2</td></tr>")
        .contains("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1000 ")
        .contains("aria-label=\"Component values at each percentile\"")
        .contains("<h3>Run <code>bench-1</code></h3>")
        .contains("<table class=\"t sortable\"><thead><tr><th title=\"sort\">run</th>")
        .contains(
            "<td data-v=\"bench-1\">bench-1</td><td data-v=\"r5\">r5</td>"
                + "<td class=\"n\" data-v=\"1\">1</td>")
        .contains("<li>Join: 10 of 12 client requests have a server record (83.3%); 4 attributed.")
        .contains("<code>tokentrace sql unmatched_requests --param kind=client_only</code>")
        .endsWith("</script>\n</body></html>\n");
    // a table of contents linking every section, in page order; charts keep their drawn size
    assertThat(html)
        .contains(
            "<nav class=\"toc\" aria-label=\"Contents\"><a href=\"#bottleneck\">Bottleneck</a>"
                + "<a href=\"#attribution\">")
        .contains("<a href=\"#reproducibility\">Reproducibility</a></nav>")
        .contains("viewBox=\"0 0 1000 ")
        .contains("class=\"wide\" role=\"img\"")
        .contains(">TTFT P50 ms</th>");
  }

  @Test
  void theKvAxisEndsAboveTheLargestUseSoSmallUseStaysVisible() {
    Instant t = Instant.parse("2026-03-01T12:00:00Z");
    List<ReportEvidence.TimelinePoint> low = List.of(point(t, 0.3), point(t.plusSeconds(1), 0.2));
    assertThat(SvgTimeline.kvTop(low)).isEqualTo(1.0);
    List<ReportEvidence.TimelinePoint> high = List.of(point(t, 93.0));
    assertThat(SvgTimeline.kvTop(high)).isEqualTo(100.0);
  }

  private static ReportEvidence.TimelinePoint point(Instant start, double kvPct) {
    return new ReportEvidence.TimelinePoint(
        "vllm", "gpu-0", 0, start, start.plusSeconds(1), 1, 4, 4.0, 0, kvPct);
  }

  @Test
  void escapesEveryCharacterThatCouldOpenMarkup() {
    assertThat(Html.text("<a href=\"x\" onclick='y'>&</a>\u0000"))
        .isEqualTo("&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt; ");
    assertThat(Html.attr("\" onload=\"x")).isEqualTo("\"&quot; onload=&quot;x\"");
    assertThat(Html.prose(Text.of("run ", Inline.code("<b>"), " took ", Inline.code("1"), " ms")))
        .isEqualTo("run <code>&lt;b&gt;</code> took <code>1</code> ms");
    // prose is never parsed for markup: a backtick is a character, in prose and in code alike
    assertThat(Html.prose(Text.of("unbalanced `code ", Inline.code("a`b\nc"))))
        .isEqualTo("unbalanced `code <code>a`b c</code>");
  }

  @Test
  void picksRoundAxisTicks() {
    SvgAxis.Scale linear = SvgAxis.linear(0, 37.9, 0, 100);
    assertThat(linear.max()).isEqualTo(50);
    assertThat(SvgAxis.ticks(linear, 5)).containsExactly(0.0, 10.0, 20.0, 30.0, 40.0, 50.0);
    SvgAxis.Scale log = SvgAxis.log(18, 9400, 0, 300);
    assertThat(log.min()).isEqualTo(10);
    assertThat(log.max()).isEqualTo(10_000);
    assertThat(SvgAxis.ticks(log, 0)).startsWith(10.0, 20.0, 50.0, 100.0).endsWith(10_000.0);
    assertThat(log.at(100)).isEqualTo(100);
    assertThat(SvgAxis.ms(250)).isEqualTo("250 ms");
    assertThat(SvgAxis.ms(1500)).isEqualTo("1.5 s");
  }
}
