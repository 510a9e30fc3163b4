package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionResult;

/**
 * What one attribution did.
 *
 * @param result the run id and the data-quality counts after it
 * @param storedResults report results stored with it (0 unless the request asked and the engine
 *     recomputed every request)
 * @param round what the run did, for the command's output: "attributed every request" or how many
 *     keys an incremental round attributed again and why
 * @param steps milliseconds of the run's steps, for a round's timing line
 */
public record CorrelateOutcome(
    AttributionResult result, int storedResults, String round, String steps) {
  public CorrelateOutcome {
    requireNonNull(result, "result is null");
    requireNonNull(round, "round is null");
    requireNonNull(steps, "steps is null");
  }
}
