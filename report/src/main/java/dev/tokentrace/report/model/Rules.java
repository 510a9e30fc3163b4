package dev.tokentrace.report.model;

/**
 * The attribution rules a report was computed with, as it prints them.
 *
 * @param heuristicMatch whether requests without a shared ID were paired by time and tokens
 */
public record Rules(
    double negativeToleranceMs,
    double negativeTolerancePct,
    int warmupFirstN,
    boolean heuristicMatch) {}
