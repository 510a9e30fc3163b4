package dev.tokentrace.report.model;

import org.jspecify.annotations.Nullable;

/**
 * How far the attribution can be trusted: one row of {@code sql/attribution/data_quality.sql}
 * (definitions there), the report's copy of the attribution's counts. Counts are client rows unless
 * named keys.
 */
public record Quality(
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
    long clockTimeSeries) {}
