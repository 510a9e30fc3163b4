package dev.tokentrace.loadgen;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When a fixed-rate run issues its requests: offsets from the run's start, either evenly spaced
 * ({@code constant}) or a Poisson process (exponential gaps, {@code poisson}) drawn from a seed, so
 * a run can be repeated. Not thread-safe.
 */
public final class Arrivals {
  /** How gaps between requests are drawn. */
  public enum Kind {
    CONSTANT,
    POISSON;

    /**
     * Parses {@code constant} or {@code poisson}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static Kind of(String text) {
      switch (text.strip().toLowerCase(Locale.ROOT)) {
        case "constant":
          return CONSTANT;
        case "poisson":
          return POISSON;
        default:
          throw new IllegalArgumentException(
              "--arrival '" + text + "' is not one of constant, poisson");
      }
    }
  }

  private final Kind kind;
  private final double meanGapNanos;
  private final SplittableRandom random;
  private double offsetNanos;
  private int issued;

  Arrivals(Kind kind, double ratePerSecond, long seed) {
    if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
      throw new IllegalArgumentException("--rate must be > 0: " + ratePerSecond);
    }
    this.kind = kind;
    this.meanGapNanos = 1e9 / ratePerSecond;
    this.random = new SplittableRandom(seed);
  }

  /** The next request's offset from the start, in ns; the first is at 0. */
  long nextOffsetNanos() {
    if (issued++ > 0) {
      offsetNanos += kind == Kind.CONSTANT ? meanGapNanos : exponentialGap();
    }
    return Math.round(offsetNanos);
  }

  private double exponentialGap() {
    return -Math.log(1 - random.nextDouble()) * meanGapNanos; // 1 - u is in (0, 1]
  }
}
