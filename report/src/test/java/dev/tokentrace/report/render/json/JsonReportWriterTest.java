package dev.tokentrace.report.render.json;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.report.analysis.ReportAnalysis;
import dev.tokentrace.report.load.ReportDataLoader;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.rows.DataQuality;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class JsonReportWriterTest {
  @TempDir Path dir;

  @Test
  void writesTheSectionsWithSqlColumnNames() throws Exception {
    String json;
    try (Database database = Database.open(DatabaseSettings.inMemory())) {
      HandComputedDataset.load(database, dir);
      StringBuilder out = new StringBuilder();
      new ReportService(database, HandComputedDataset.CLOCK)
          .write(
              new ReportSettings(ReportFormat.JSON, AttributionSettings.defaults()),
              "tokentrace report --format json",
              out);
      json = out.toString();
    }
    assertThat(json)
        .startsWith("{\n  \"schema\" : \"tokentrace-report\",\n  \"schema_version\" : 1,\n")
        .contains("\"generated_at\" : \"2026-03-01T13:00:00Z\"")
        .contains("\"command\" : \"tokentrace report --format json\"")
        .contains("\"baseline\" : null");
    JsonNode report = new ObjectMapper().readTree(json);
    assertThat(report.fieldNames())
        .toIterable()
        .containsExactly(
            "schema",
            "schema_version",
            "database",
            "generated_at",
            "command",
            "settings",
            "environment",
            "core_metrics",
            "matrix",
            "baseline",
            "attribution",
            "bottleneck",
            "suggestions",
            "evidence",
            "gpu",
            "requests",
            "data_quality",
            "reproducibility");
    JsonNode decode = report.at("/attribution/components/4");
    assertThat(decode.get("group_by").asText()).isEqualTo("all");
    assertThat(decode.get("component").asText()).isEqualTo("decode");
    assertThat(decode.get("p50_ms").asDouble()).isEqualTo(250.0);
    assertThat(decode.get("dominant_requests").asLong()).isEqualTo(2);
    assertThat(report.at("/data_quality/counts/join_rate").asDouble()).isEqualTo(10.0 / 12);
    assertThat(report.at("/bottleneck/runs/0/run_id").asText()).isEqualTo("bench-1");
    assertThat(report.at("/bottleneck/sentences/0").asText())
        .startsWith("Decode takes the largest share, 57.1%");
    assertThat(report.at("/requests/0/request_key").asText()).isEqualTo("w1");
    assertThat(report.at("/requests/0/exclusion").asText()).isEqualTo("warm-up");
    assertThat(report.at("/core_metrics/by_run_and_concurrency/1/ftl_p50_growth_pct").asDouble())
        .isEqualTo(100.0 * (75.0 / 55 - 1));
  }

  @Test
  void writesNonFiniteNumbersAsNull() throws Exception {
    ReportData data =
        new ReportData(
            "x.duckdb",
            Instant.parse("2026-03-01T13:00:00Z"),
            ReportDataLoader.rules(AttributionSettings.defaults()),
            List.of(),
            List.of(),
            List.of(
                new ReportData.Metric(
                    "all", null, "ftl", 1, Double.NaN, Double.POSITIVE_INFINITY, 1.0, 1.0, 1.0)),
            List.of(),
            List.of(),
            new DataQuality(
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, 0, 0, 0, 0,
                0, 0, 0, 0),
            List.of());
    StringBuilder out = new StringBuilder();
    new JsonReportWriter().write(ReportAnalysis.of(data), out);
    JsonNode ftl = new ObjectMapper().readTree(out.toString()).at("/core_metrics/overall/0");
    assertThat(ftl.get("p50_ms").isNull()).isTrue();
    assertThat(ftl.get("p90_ms").isNull()).isTrue();
    assertThat(ftl.get("p95_ms").asDouble()).isEqualTo(1.0);
  }
}
