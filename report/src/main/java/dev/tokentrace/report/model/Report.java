package dev.tokentrace.report.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Everything a renderer shows: the rows ({@link ReportData}) and what the analysis concluded from
 * them, as structured {@link Text}. A renderer reads only this; adding a section is one field here
 * (a record of its own when it has structure), filled by the analysis, and one method per renderer.
 *
 * @param definitions how the core metrics are defined
 * @param bottleneck the 3-5 sentence conclusion over all runs
 * @param runs one summary per client run, in load order
 * @param qualityNotes the data-quality notes, one sentence or two each
 * @param reproducibility the appendix's items: commands, rules, runs, files
 * @param baselineRows the comparison with {@code data.baseline()}, empty without one
 * @param configuration each server instance's settings as its startup output stated them
 * @param load each client run's load (lengths, concurrency), in load order
 * @param baselineConfiguration the configuration against the baseline's, null without a baseline
 * @param gpu the "GPU and co-tenants" section
 */
public record Report(
    ReportData data,
    Text definitions,
    List<Text> bottleneck,
    List<RunSummary> runs,
    List<Suggestion> suggestions,
    List<Text> qualityNotes,
    List<Text> reproducibility,
    List<BaselineRow> baselineRows,
    List<ServerSettings> configuration,
    List<RunLoad> load,
    @Nullable ConfigComparison baselineConfiguration,
    GpuSection gpu) {
  public Report {
    requireNonNull(gpu, "gpu is null");
    requireNonNull(data, "data is null");
    requireNonNull(definitions, "definitions is null");
    bottleneck = List.copyOf(bottleneck);
    runs = List.copyOf(runs);
    suggestions = List.copyOf(suggestions);
    qualityNotes = List.copyOf(qualityNotes);
    reproducibility = List.copyOf(reproducibility);
    baselineRows = List.copyOf(baselineRows);
    configuration = List.copyOf(configuration);
    load = List.copyOf(load);
  }

  /** A report without the GPU section's conclusions (the shape before it). */
  public Report(
      ReportData data,
      Text definitions,
      List<Text> bottleneck,
      List<RunSummary> runs,
      List<Suggestion> suggestions,
      List<Text> qualityNotes,
      List<Text> reproducibility,
      List<BaselineRow> baselineRows,
      List<ServerSettings> configuration,
      List<RunLoad> load,
      @Nullable ConfigComparison baselineConfiguration) {
    this(
        data,
        definitions,
        bottleneck,
        runs,
        suggestions,
        qualityNotes,
        reproducibility,
        baselineRows,
        configuration,
        load,
        baselineConfiguration,
        new GpuSection(List.of(), List.of(), List.of(), null, null));
  }
}
