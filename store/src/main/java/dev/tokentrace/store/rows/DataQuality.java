package dev.tokentrace.store.rows;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * How far the attribution can be trusted: one row of {@code sql/attribution/data_quality.sql}
 * (definitions there). Counts are client rows unless named keys; server-side keys are request
 * identities (a client's key once, an engine's own key once per instance). Written by {@code
 * correlate}, shown by the report: one type for both, JDK only (package docs).
 *
 * @param retriedAttributedRows rows attributed although the server saw the request retried (the
 *     final attempt's record was told apart; {@code request_attribution.attempt_rule})
 * @param clockTimeSeries clock offsets estimated from time series alone (steady server clocks)
 */
public record DataQuality(
    long clientRows,
    long clientOkRows,
    long warmupRows,
    long clientErrorRows,
    long matchedRows,
    long arrivalOnlyRows,
    long clientOnlyRows,
    long duplicateRows,
    long duplicateClientKeys,
    long duplicateServerKeys,
    long suspectRows,
    long incompleteRows,
    long derivedRows,
    long tokenMismatchRows,
    long clientQueueRows,
    long includedRows,
    long serverTimingKeys,
    long serverArrivalKeys,
    long serverOnlyKeys,
    long clientRejects,
    long serverRejects,
    @Nullable Double joinRate,
    long heuristicRows,
    long ambiguousRows,
    long unjoinableRows,
    long serverRetriedKeys,
    long clockEstimates,
    long clockFlagged,
    long zoneShifts,
    long retriedAttributedRows,
    long clockTimeSeries) {

  /** The one summary line of {@code tokentrace correlate}. */
  public String summary() {
    return String.format(
        Locale.ROOT,
        "requests=%d matched=%d heuristic=%d attributed=%d arrival_only=%d client_only=%d"
            + " duplicate=%d suspect=%d warmup=%d server_only=%d clock_flags=%d join_rate=%s",
        clientRows,
        matchedRows,
        heuristicRows,
        includedRows,
        arrivalOnlyRows,
        clientOnlyRows,
        duplicateRows,
        suspectRows,
        warmupRows,
        serverOnlyKeys,
        clockFlagged,
        joinRate == null ? "n/a" : String.format(Locale.ROOT, "%.1f%%", 100 * joinRate));
  }
}
