package dev.tokentrace.report.render.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import dev.tokentrace.report.model.ConfigComparison;
import dev.tokentrace.report.model.GpuEvidence;
import dev.tokentrace.report.model.GpuSection;
import dev.tokentrace.report.model.Inline;
import dev.tokentrace.report.model.MatrixRegressions;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.ReportRenderer;
import dev.tokentrace.report.model.Rules;
import dev.tokentrace.report.model.RunSummary;
import dev.tokentrace.report.model.Suggestion;
import dev.tokentrace.report.model.Text;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The report as one JSON object for machines, documented by {@code docs/report-schema.json} (JSON
 * Schema; {@value #SCHEMA_VERSION} is its version): the same sections as the Markdown, with every
 * row of every query under its SQL column names (snake_case), timestamps as ISO-8601 UTC strings,
 * durations in ms, shares as fractions; a value SQL left NULL, or a non-finite number, is null.
 * Stateless and thread-safe.
 */
public final class JsonReportWriter implements ReportRenderer {
  /** Bumped when a field is renamed or removed; adding fields keeps it. */
  public static final int SCHEMA_VERSION = 1;

  private static final ObjectMapper JSON = mapper();

  @Override
  public void write(Report report, Appendable out) throws IOException {
    out.append(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(document(report)));
    out.append('\n');
  }

  /** The report as maps, lists and records, in the order of docs/report-schema.json. */
  static Map<String, Object> document(Report report) {
    ReportData data = report.data();
    ReportEvidence evidence = data.evidence();
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("schema", "tokentrace-report");
    document.put("schema_version", SCHEMA_VERSION);
    document.put("database", data.database());
    document.put("generated_at", data.generatedAt());
    document.put("command", evidence.command());
    document.put("settings", settings(data.settings()));
    document.put(
        "environment",
        map(
            "instances", evidence.instances(),
            "facts", evidence.facts(),
            "sources", data.sources(),
            "runs", evidence.runs(),
            "configuration", configuration(report),
            "config_rows", evidence.config(),
            "load", evidence.load()));
    document.put(
        "core_metrics",
        map(
            "definitions", string(report.definitions()),
            "overall", data.metrics("all"),
            "by_run", data.metrics("run"),
            "by_run_and_concurrency", data.concurrency(),
            "throughput", evidence.throughput()));
    document.put(
        "matrix",
        map(
            "cells", evidence.matrix(),
            "regressions", MatrixRegressions.of(evidence.matrix())));
    document.put("baseline", baseline(report));
    Map<String, Object> attribution =
        map("attributed_requests", data.quality().includedRows(), "components", data.components());
    if (data.pd().present()) {
      // only with P/D requests: a single-server report's JSON stays as it was
      // (docs/formats/pd.md#attribution)
      String note = data.pd().estimateNote();
      attribution.put(
          "prefill_decode",
          map(
              "components",
              data.pd().parts(),
              "pairs",
              data.pd().pairs(),
              "estimate_note",
              note == null ? "" : note));
    }
    document.put("attribution", attribution);
    document.put(
        "bottleneck",
        map(
            "sentences", strings(report.bottleneck()),
            "runs", report.runs().stream().map(JsonReportWriter::finding).toList()));
    document.put(
        "suggestions", report.suggestions().stream().map(JsonReportWriter::suggestion).toList());
    document.put("evidence", evidence(evidence));
    document.put("gpu", gpu(report));
    document.put("requests", evidence.requests());
    document.put("data_quality", map("counts", data.quality(), "clock_offsets", data.clocks()));
    document.put("reproducibility", map("files", data.files()));
    return document;
  }

  private static Map<String, Object> gpu(Report report) {
    GpuSection gpu = report.gpu();
    GpuEvidence rows = report.data().evidence().gpu();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("absent", gpu.absent() == null ? null : string(gpu.absent()));
    out.put("instances", gpu.instances());
    out.put("findings", strings(gpu.findings()));
    out.put("timeline", rows.timeline());
    out.put("processes", rows.processes());
    out.put("contended_requests", rows.contended());
    out.put("histogram_check", strings(gpu.histograms()));
    out.put("histogram_rows", rows.histograms());
    out.put("no_histograms", gpu.noHistograms() == null ? null : string(gpu.noHistograms()));
    return out;
  }

  private static Map<String, Object> settings(Rules settings) {
    return map(
        "negative_tolerance_ms", settings.negativeToleranceMs(),
        "negative_tolerance_pct", settings.negativeTolerancePct(),
        "warmup_first_n", settings.warmupFirstN(),
        "match", settings.heuristicMatch() ? "heuristic" : "id");
  }

  private static @Nullable Object baseline(Report report) {
    ReportData.Baseline baseline = report.data().baseline();
    if (baseline == null) {
      return null;
    }
    List<Map<String, Object>> rows =
        report.baselineRows().stream()
            .map(
                row -> {
                  Map<String, Object> out = new LinkedHashMap<>();
                  out.put("metric", row.metric());
                  out.put("stat", row.stat());
                  out.put("unit", row.unit());
                  out.put("current", row.current());
                  out.put("baseline", row.baseline());
                  out.put("delta", row.delta());
                  out.put("change_pct", row.changePct());
                  return out;
                })
            .toList();
    ConfigComparison diff = report.baselineConfiguration();
    @Nullable Map<String, Object> configuration =
        diff == null
            ? null
            : map(
                "sentence", string(diff.sentence()),
                "comparable", diff.comparable(),
                "compared", diff.compared(),
                "unpaired", diff.unpaired(),
                "differences", diff.differences());
    return map(
        "database",
        baseline.database(),
        "quality",
        baseline.quality(),
        "configuration",
        configuration,
        "rows",
        rows);
  }

  /** Per instance: the environment settings, the unknown ones with how, changed keys. */
  private static List<Map<String, Object>> configuration(Report report) {
    return report.configuration().stream()
        .map(
            instance ->
                map(
                    "engine", instance.engine(),
                    "instance", instance.instance(),
                    "settings",
                        instance.items().stream()
                            .map(
                                item ->
                                    map(
                                        "setting", item.setting(),
                                        "value", item.value(),
                                        "key", item.key(),
                                        "source", item.source()))
                            .toList(),
                    "unknown",
                        instance.unknown().stream()
                            .map(gap -> map("setting", gap.setting(), "how", string(gap.how())))
                            .toList(),
                    "changed", instance.changed()))
        .toList();
  }

  private static Map<String, Object> finding(RunSummary run) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("run_id", run.runId());
    out.put("requests", run.requests());
    out.put("attributed", run.attributed());
    out.put("verdict", run.verdict());
    out.put("signals", run.signals());
    out.put("sentences", strings(run.sentences()));
    return out;
  }

  private static Map<String, Object> suggestion(Suggestion suggestion) {
    return map(
        "topic", suggestion.topic(),
        "text", string(suggestion.text()),
        "runs", suggestion.runs());
  }

  /**
   * Report text as one JSON string: code between backticks (with backticks and line breaks inside
   * replaced), the plain-text convention the schema documents for sentences.
   */
  static String string(Text text) {
    StringBuilder out = new StringBuilder();
    for (Inline part : text.parts()) {
      if (part instanceof Inline.Code code) {
        out.append('`')
            .append(code.text().replace('`', '\'').replace('\r', ' ').replace('\n', ' '))
            .append('`');
      } else {
        out.append(part.text());
      }
    }
    return out.toString();
  }

  private static List<String> strings(List<Text> texts) {
    return texts.stream().map(JsonReportWriter::string).toList();
  }

  private static Map<String, Object> evidence(ReportEvidence evidence) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("concurrency_by_instance", evidence.concurrencyByInstance());
    out.put("mlt_vs_context", evidence.mltVsContext());
    out.put("prefill_vs_prompt", evidence.prefillVsPrompt());
    out.put("batch_vs_concurrency", evidence.batchVsConcurrency());
    out.put("warmup", evidence.warmup());
    out.put("slowest_requests", evidence.slowest());
    out.put("notices", evidence.notices());
    out.put("notices_near_slow", evidence.noticesNearSlow());
    out.put("network_outliers", evidence.networkOutliers());
    out.put("ftl_cdf", evidence.ftlCdf());
    out.put("timeline", evidence.timeline());
    return out;
  }

  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static ObjectMapper mapper() {
    SimpleModule module = new SimpleModule("tokentrace-report");
    module.addSerializer(Instant.class, ToStringSerializer.instance);
    module.addSerializer(Double.class, new FiniteDouble());
    module.addSerializer(Double.TYPE, new FiniteDouble());
    ObjectMapper mapper = new ObjectMapper();
    mapper.setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE);
    mapper.disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    mapper.registerModule(module);
    return mapper;
  }

  /** NaN and infinities are not JSON numbers: written as null. */
  private static final class FiniteDouble extends JsonSerializer<Double> {
    @Override
    public void serialize(Double value, JsonGenerator out, SerializerProvider provider)
        throws IOException {
      if (Double.isFinite(value)) {
        out.writeNumber(value);
      } else {
        out.writeNull();
      }
    }
  }
}
