package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The report's cross-check of the server's own /metrics histograms against the per-request
 * attribution (docs/formats/metrics.md#the-reports-cross-check) on the contention sample, whose
 * {@code metrics.prom} the simulator saved every 5 s from the same run
 * (docs/formats/metrics.md#simulated-scrapes): the two agree on every component; with the decode
 * histogram's sums perturbed, the report names decode as the one that disagrees and by how much, in
 * Markdown, HTML and JSON alike.
 */
final class HistogramCheckIT {
  private static final String SCENARIO = "v0.16-gpu-contention";

  @TempDir Path dir;

  @Test
  void aPerturbedDecodeHistogramIsNamedWithHowFarItIsOff() throws IOException {
    SampleScenarios.Scenario scenario = scenario();
    List<Path> files = new ArrayList<>();
    Path perturbed = dir.resolve("metrics.prom");
    for (Path file : scenario.serverFiles()) {
      if (file.endsWith("metrics.prom")) {
        Files.writeString(perturbed, decodeSumsTimes(Files.readString(file, UTF_8), 1.5), UTF_8);
        files.add(perturbed);
      } else {
        files.add(file);
      }
    }
    Report report = report(scenario, ScenarioDatabase.parse(scenario, files, scenario.engine()));

    assertThat(report.rows())
        .extracting(GpuEvidence.HistogramCheck::component)
        .containsExactly("queue", "prefill", "decode", "ttft", "tpot", "e2e");
    for (GpuEvidence.HistogramCheck row : report.rows()) {
      assertThat(row.agrees()).as(row.component()).isEqualTo(!row.component().equals("decode"));
    }
    GpuEvidence.HistogramCheck decode =
        report.rows().stream().filter(row -> row.component().equals("decode")).findFirst().get();
    // every decode time summed half as much again: the server's mean is 50 % above the
    // attribution's
    assertThat(decode.serverMeanMs() / decode.attributedMeanMs()).isCloseTo(1.5, within(0.001));
    String off =
        String.format(
            Locale.ROOT,
            "off by +%.1f ms (+50.0%%)",
            decode.serverMeanMs() - decode.attributedMeanMs());
    String verdict = "the server's own histograms disagree with the per-request attribution";
    for (String text : List.of(report.markdown(), report.json())) {
      assertThat(text).contains(verdict).contains("Disagree: decode mean").contains(off);
    }
    assertThat(report.html())
        .contains(verdict.replace("'", "&#39;"))
        .contains("Disagree: decode mean")
        .contains(off);
    assertThat(report.json().replaceAll("\\s+", "")).contains("\"agrees\":false");
  }

  private static org.assertj.core.data.Offset<Double> within(double value) {
    return org.assertj.core.data.Offset.offset(value);
  }

  /** The scrape text with every {@code vllm:request_decode_time_seconds_sum} times {@code f}. */
  private static String decodeSumsTimes(String text, double f) {
    Pattern sum =
        Pattern.compile("^(vllm:request_decode_time_seconds_sum\\S*) (\\S+)$", Pattern.MULTILINE);
    Matcher matcher = sum.matcher(text);
    StringBuilder out = new StringBuilder();
    int edited = 0;
    while (matcher.find()) {
      double value = Double.parseDouble(matcher.group(2)) * f;
      matcher.appendReplacement(out, Matcher.quoteReplacement(matcher.group(1) + " " + value));
      edited++;
    }
    matcher.appendTail(out);
    assertThat(edited).as("decode sums in the scrape").isGreaterThan(10);
    return out.toString();
  }

  /** The sample, with absolute paths (an edited copy of one of its files lives elsewhere). */
  private static SampleScenarios.Scenario scenario() {
    SampleScenarios.Scenario s =
        SampleScenarios.find(GoldenSamplesTest.SAMPLES).stream()
            .filter(found -> found.name().equals(SCENARIO))
            .findFirst()
            .orElseThrow();
    return new SampleScenarios.Scenario(
        s.engine(),
        s.name(),
        s.dir().toAbsolutePath(),
        s.serverFiles().stream().map(Path::toAbsolutePath).toList(),
        s.clientFile().toAbsolutePath(),
        s.clientFormat(),
        s.gatewayLog(),
        s.properties());
  }

  /** The scenario's events and client file in DuckDB, attributed, and its report rendered. */
  private static Report report(SampleScenarios.Scenario scenario, List<EngineEvent> events)
      throws IOException {
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      EventTables.insert(database, events);
      ScenarioDatabase.loadClients(database, scenario, scenario.clientFile());
      ScenarioDatabase.attribute(database);
      ReportData data =
          new ReportService(database, ScenarioDatabase.CLOCK)
              .build(AttributionSettings.defaults(), "test");
      StringBuilder markdown = new StringBuilder();
      ReportService.render(data, ReportFormat.MARKDOWN, markdown);
      StringBuilder html = new StringBuilder();
      ReportService.render(data, ReportFormat.HTML, html);
      StringBuilder json = new StringBuilder();
      ReportService.render(data, ReportFormat.JSON, json);
      // Markdown wraps its paragraphs: compare with single blanks
      return new Report(
          data.evidence().gpu().histograms(),
          markdown.toString().replaceAll("\\s+", " "),
          html.toString().replaceAll("\\s+", " "),
          json.toString());
    }
  }

  private record Report(
      List<GpuEvidence.HistogramCheck> rows, String markdown, String html, String json) {}
}
