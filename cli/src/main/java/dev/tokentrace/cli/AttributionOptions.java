package dev.tokentrace.cli;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The attribution rules shared by {@code correlate}, {@code report} and {@code demo}. */
final class AttributionOptions {
  @Option(
      names = "--negative-tolerance-ms",
      paramLabel = "MS",
      description = AttributionSettings.NEGATIVE_TOLERANCE_MS_DOC,
      defaultValue = "" + AttributionSettings.NEGATIVE_TOLERANCE_MS_DEFAULT)
  @Nullable Double negativeToleranceMs;

  @Option(
      names = "--negative-tolerance-pct",
      paramLabel = "PCT",
      description = AttributionSettings.NEGATIVE_TOLERANCE_PCT_DOC,
      defaultValue = "" + AttributionSettings.NEGATIVE_TOLERANCE_PCT_DEFAULT)
  @Nullable Double negativeTolerancePct;

  @Option(
      names = "--warmup-first",
      paramLabel = "N",
      description = AttributionSettings.WARMUP_FIRST_N_DOC,
      defaultValue = "" + AttributionSettings.WARMUP_FIRST_N_DEFAULT)
  @Nullable Integer warmupFirstN;

  AttributionSettings settings() {
    return AttributionSettings.from(negativeToleranceMs, negativeTolerancePct, warmupFirstN);
  }
}
