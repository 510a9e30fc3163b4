package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;

/**
 * One attribution to run.
 *
 * @param rules the attribution's rules (match mode, tolerances, warm-up)
 * @param command the command line, recorded in {@code runs}
 * @param mode every request again, or only those whose rows changed
 * @param storeReportResults whether the report's costly results are stored with the attribution, in
 *     its transaction (docs/design.md#stored-report-results): a batch {@code correlate} does; a
 *     {@code --follow} round, {@code report}'s recompute and {@code demo} do not
 */
public record CorrelateRequest(
    AttributionSettings rules, String command, Mode mode, boolean storeReportResults) {
  /** How much an attribution computes again (docs/design.md#incremental-attribution). */
  public enum Mode {
    /** Every request, as a batch {@code correlate}. */
    FULL,
    /**
     * Only the request keys whose input rows changed since the last incremental round, as {@code
     * correlate --follow}; the result equals a full one.
     */
    INCREMENTAL
  }

  public CorrelateRequest {
    requireNonNull(rules, "rules is null");
    requireNonNull(command, "command is null");
    requireNonNull(mode, "mode is null");
  }

  /** A batch attribution that stores the report's results with it ({@code correlate}). */
  public static CorrelateRequest batch(AttributionSettings rules, String command) {
    return new CorrelateRequest(rules, command, Mode.FULL, true);
  }
}
