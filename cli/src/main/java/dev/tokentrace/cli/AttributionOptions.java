package dev.tokentrace.cli;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.MatchSettings;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

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

  @Option(
      names = "--match",
      paramLabel = "MODE",
      description = MatchSettings.MODE_DOC,
      defaultValue = "id")
  @Nullable String match;

  @Option(
      names = "--match-window-ms",
      paramLabel = "MS",
      description = MatchSettings.WINDOW_MS_DOC,
      defaultValue = "" + MatchSettings.WINDOW_MS_DEFAULT)
  @Nullable Double matchWindowMs;

  @Option(
      names = "--match-output-tokens",
      paramLabel = "N",
      description = MatchSettings.OUTPUT_TOKEN_TOLERANCE_DOC,
      defaultValue = "" + MatchSettings.OUTPUT_TOKEN_TOLERANCE_DEFAULT)
  @Nullable Integer matchOutputTokens;

  @Option(
      names = "--match-prompt-tokens",
      paramLabel = "N",
      description = MatchSettings.PROMPT_TOKEN_TOLERANCE_DOC,
      defaultValue = "" + MatchSettings.PROMPT_TOKEN_TOLERANCE_DEFAULT)
  @Nullable Integer matchPromptTokens;

  /** Whether the command line gave any of these options. */
  boolean anyGiven(ParseResult parsed) {
    for (String name :
        List.of(
            "--negative-tolerance-ms",
            "--negative-tolerance-pct",
            "--warmup-first",
            "--match",
            "--match-window-ms",
            "--match-output-tokens",
            "--match-prompt-tokens")) {
      if (parsed.hasMatchedOption(name)) {
        return true;
      }
    }
    return false;
  }

  AttributionSettings settings() {
    return AttributionSettings.from(negativeToleranceMs, negativeTolerancePct, warmupFirstN)
        .withMatch(MatchSettings.from(match, matchWindowMs, matchOutputTokens, matchPromptTokens));
  }
}
