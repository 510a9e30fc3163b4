package dev.tokentrace.report;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * What {@code tokentrace report} writes: the format, the attribution rules it recomputes with, and
 * an optional baseline database whose metrics the report compares against.
 */
public record ReportSettings(
    ReportFormat format, AttributionSettings attribution, @Nullable Path baseline) {
  public static final String FORMAT_DOC =
      "report format: md (Markdown for a terminal), html (one self-contained page with charts) or"
          + " json (for machines, schema in docs/report-schema.json)";
  public static final ReportFormat FORMAT_DEFAULT = ReportFormat.MARKDOWN;

  public static final String BASELINE_DOC =
      "another tokentrace DuckDB file (e.g. the previous release's run), attached read-only: the"
          + " report compares TTFT, ITL, TPOT, E2E, throughput and component shares with it";

  public ReportSettings {
    requireNonNull(format, "format is null");
    requireNonNull(attribution, "attribution is null");
  }

  /** Without a baseline. */
  public ReportSettings(ReportFormat format, AttributionSettings attribution) {
    this(format, attribution, null);
  }

  /** The settings the CLI options give; a null format is {@code md}. */
  public static ReportSettings from(@Nullable String format, AttributionSettings attribution) {
    return from(format, attribution, null);
  }

  /** The settings the CLI options give; a null format is {@code md}, a null baseline none. */
  public static ReportSettings from(
      @Nullable String format, AttributionSettings attribution, @Nullable Path baseline) {
    return new ReportSettings(
        format == null ? FORMAT_DEFAULT : ReportFormat.fromId(format), attribution, baseline);
  }
}
