package dev.tokentrace.correlate.attribution;

import org.jspecify.annotations.Nullable;

/**
 * The rules of one attribution run (parameters of {@code sql/attribution/per_request.sql}).
 *
 * @param negativeToleranceMs a negative network time up to this many ms is rounding, not a fault
 * @param negativeTolerancePct ... or up to this percentage of the client's time, whichever is
 *     larger
 * @param warmupFirstN requests per run and concurrency level (by start time) treated as warm-up, on
 *     top of those the client flagged
 * @param match how client and server requests are paired (by ID, or also heuristically)
 */
public record AttributionSettings(
    double negativeToleranceMs,
    double negativeTolerancePct,
    int warmupFirstN,
    MatchSettings match) {
  public static final String NEGATIVE_TOLERANCE_MS_DOC =
      "a pair whose network time is below -max(this, the percentage option of the client time) is suspect (ID or clock"
          + " mismatch) and left out of aggregates";
  public static final double NEGATIVE_TOLERANCE_MS_DEFAULT = 5.0;

  public static final String NEGATIVE_TOLERANCE_PCT_DOC =
      "the percentage of the client's time allowed as negative network time (see the ms option)";
  public static final double NEGATIVE_TOLERANCE_PCT_DEFAULT = 1.0;

  public static final String WARMUP_FIRST_N_DOC =
      "the first N requests of each run and concurrency level are warm-up (excluded), besides those"
          + " the client marked; 3-5 warm-up requests are usual";
  public static final int WARMUP_FIRST_N_DEFAULT = 0;

  public AttributionSettings {
    if (match == null) {
      throw new IllegalArgumentException("match is null");
    }
    if (!(negativeToleranceMs >= 0) || Double.isInfinite(negativeToleranceMs)) {
      throw new IllegalArgumentException(
          "--negative-tolerance-ms must be finite and >= 0: " + negativeToleranceMs);
    }
    if (!(negativeTolerancePct >= 0 && negativeTolerancePct <= 100)) {
      throw new IllegalArgumentException(
          "--negative-tolerance-pct must be in [0, 100]: " + negativeTolerancePct);
    }
    if (warmupFirstN < 0) {
      throw new IllegalArgumentException("--warmup-first must be >= 0: " + warmupFirstN);
    }
  }

  /** Pairing by ID only. */
  public AttributionSettings(
      double negativeToleranceMs, double negativeTolerancePct, int warmupFirstN) {
    this(negativeToleranceMs, negativeTolerancePct, warmupFirstN, MatchSettings.defaults());
  }

  /** These rules with another pairing. */
  public AttributionSettings withMatch(MatchSettings value) {
    return new AttributionSettings(negativeToleranceMs, negativeTolerancePct, warmupFirstN, value);
  }

  /** The defaults. */
  public static AttributionSettings defaults() {
    return from(null, null, null);
  }

  /** The settings the CLI options give; null options take the defaults. */
  public static AttributionSettings from(
      @Nullable Double negativeToleranceMs,
      @Nullable Double negativeTolerancePct,
      @Nullable Integer warmupFirstN) {
    return new AttributionSettings(
        negativeToleranceMs == null ? NEGATIVE_TOLERANCE_MS_DEFAULT : negativeToleranceMs,
        negativeTolerancePct == null ? NEGATIVE_TOLERANCE_PCT_DEFAULT : negativeTolerancePct,
        warmupFirstN == null ? WARMUP_FIRST_N_DEFAULT : warmupFirstN);
  }
}
