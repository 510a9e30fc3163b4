package dev.tokentrace.cli;

import dev.tokentrace.correlate.attribution.LatencyComponent;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * How close attributed components come to the truth over one scenario's requests: the largest
 * absolute error per component, how many requests have every compared component within tolerance
 * (the larger of {@value #TOLERANCE_MS} ms and {@value #TOLERANCE_FRACTION} of the true value), and
 * how often the dominant component agrees. Collects the violations for the assertion message. Not
 * thread-safe.
 */
final class AccuracyFigures {
  static final double TOLERANCE_MS = 1.0;
  static final double TOLERANCE_FRACTION = 0.01;

  private final List<LatencyComponent> components;
  private final Map<LatencyComponent, Double> maxError = new EnumMap<>(LatencyComponent.class);
  private final List<String> violations = new ArrayList<>();
  private int compared;
  private int within;
  private int dominantCompared;
  private int dominantAgreed;

  AccuracyFigures(List<LatencyComponent> components) {
    this.components = List.copyOf(components);
    for (LatencyComponent component : components) {
      maxError.put(component, 0.0);
    }
  }

  static double tolerance(double truthMs) {
    return Math.max(TOLERANCE_MS, TOLERANCE_FRACTION * Math.abs(truthMs));
  }

  /** Compares one request's attributed components (null = not computed) with the truth. */
  void compare(
      String requestKey, TruthRow truth, Map<LatencyComponent, @Nullable Double> attributed) {
    compared++;
    boolean ok = true;
    for (LatencyComponent component : components) {
      double expected = truth.component(component);
      Double actual = attributed.get(component);
      if (actual == null) {
        violations.add(requestKey + ": no " + component.id() + " (truth " + expected + ")");
        ok = false;
        continue;
      }
      double error = Math.abs(actual - expected);
      maxError.merge(component, error, Math::max);
      if (error > tolerance(expected)) {
        violations.add(
            String.format(
                Locale.ROOT,
                "%s: %s %.3f ms, truth %.3f ms",
                requestKey,
                component.id(),
                actual,
                expected));
        ok = false;
      }
    }
    if (ok) {
      within++;
    }
  }

  void compareDominant(String requestKey, String truth, @Nullable String attributed) {
    dominantCompared++;
    if (truth.equals(attributed)) {
      dominantAgreed++;
    } else {
      violations.add(requestKey + ": dominant " + attributed + ", truth " + truth);
    }
  }

  int compared() {
    return compared;
  }

  double withinShare() {
    return compared == 0 ? 0 : (double) within / compared;
  }

  double dominantShare() {
    return dominantCompared == 0 ? 0 : (double) dominantAgreed / dominantCompared;
  }

  double maxError(LatencyComponent component) {
    return maxError.getOrDefault(component, Double.NaN);
  }

  List<String> violations() {
    return List.copyOf(violations);
  }

  /** Max errors in the report's component order; n/a for components not compared. */
  List<String> maxErrorCells() {
    List<String> cells = new ArrayList<>();
    for (LatencyComponent component : ComponentShares.ORDER) {
      cells.add(
          maxError.containsKey(component)
              ? String.format(Locale.ROOT, "%.6f", maxError.get(component))
              : "n/a");
    }
    return cells;
  }

  String withinCell() {
    return String.format(Locale.ROOT, "%d/%d (%.1f%%)", within, compared, 100 * withinShare());
  }

  String dominantCell() {
    return dominantCompared == 0
        ? "n/a"
        : String.format(
            Locale.ROOT, "%d/%d (%.1f%%)", dominantAgreed, dominantCompared, 100 * dominantShare());
  }
}
