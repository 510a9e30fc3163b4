package dev.tokentrace.correlate.report;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import org.jspecify.annotations.Nullable;

/**
 * What {@code tokentrace report} writes: the format, and the attribution rules it recomputes with.
 */
public record ReportSettings(ReportFormat format, AttributionSettings attribution) {
  public static final String FORMAT_DOC = "report format: md (html and json in a later release)";
  public static final ReportFormat FORMAT_DEFAULT = ReportFormat.MARKDOWN;

  public ReportSettings {
    requireNonNull(format, "format is null");
    requireNonNull(attribution, "attribution is null");
  }

  /** The settings the CLI options give; a null format is {@code md}. */
  public static ReportSettings from(@Nullable String format, AttributionSettings attribution) {
    return new ReportSettings(
        format == null ? FORMAT_DEFAULT : ReportFormat.fromId(format), attribution);
  }
}
