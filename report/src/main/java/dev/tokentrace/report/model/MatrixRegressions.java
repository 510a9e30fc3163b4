package dev.tokentrace.report.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * The two regressions the method reads from a sweep's matrix (docs/reports.md#matrix): how ITL
 * grows when concurrency doubles, and how TTFT grows when the prompt or the output length doubles.
 * Each is a pooled least-squares fit of ln(metric P50) on log2(level) within groups of cells that
 * differ only in that level (the other two dimensions held fixed), so the slope is the growth per
 * doubling: factor = e^slope (1.0 = flat, 2.0 = doubles with the level). Pure; no markup.
 */
public final class MatrixRegressions {
  private MatrixRegressions() {}

  /**
   * One fitted growth.
   *
   * @param metric {@code itl} or {@code ttft} (P50 per cell)
   * @param dimension {@code concurrency}, {@code prompt} or {@code output}
   * @param factorPerDoubling the metric's factor when the level doubles
   * @param cells cells in the fit
   * @param groups groups of cells (other dimensions fixed) with at least two levels
   */
  public record Regression(
      String runId,
      String metric,
      String dimension,
      double factorPerDoubling,
      int cells,
      int groups) {
    /** The change per doubling in percent (+35.0 for a factor of 1.35). */
    public double percentPerDoubling() {
      return (factorPerDoubling - 1) * 100;
    }
  }

  /** The regressions each run's matrix supports (ITL ~ concurrency, TTFT ~ prompt, output). */
  public static List<Regression> of(List<ReportEvidence.MatrixRow> rows) {
    Map<String, List<ReportEvidence.MatrixRow>> byRun = new LinkedHashMap<>();
    for (ReportEvidence.MatrixRow row : rows) {
      byRun.computeIfAbsent(row.runId(), run -> new ArrayList<>()).add(row);
    }
    List<Regression> out = new ArrayList<>();
    for (Map.Entry<String, List<ReportEvidence.MatrixRow>> run : byRun.entrySet()) {
      add(
          out,
          fit(
              run.getKey(),
              run.getValue(),
              "itl",
              ReportEvidence.MatrixRow::itlP50Ms,
              "concurrency",
              ReportEvidence.MatrixRow::concurrency,
              row -> row.promptTokens() + "/" + row.maxTokens()));
      add(
          out,
          fit(
              run.getKey(),
              run.getValue(),
              "ttft",
              ReportEvidence.MatrixRow::ttftP50Ms,
              "prompt",
              ReportEvidence.MatrixRow::promptTokens,
              row -> row.maxTokens() + "/" + row.concurrency()));
      add(
          out,
          fit(
              run.getKey(),
              run.getValue(),
              "ttft",
              ReportEvidence.MatrixRow::ttftP50Ms,
              "output",
              ReportEvidence.MatrixRow::maxTokens,
              row -> row.promptTokens() + "/" + row.concurrency()));
    }
    return out;
  }

  private static void add(List<Regression> out, @Nullable Regression regression) {
    if (regression != null) {
      out.add(regression);
    }
  }

  private static @Nullable Regression fit(
      String runId,
      List<ReportEvidence.MatrixRow> rows,
      String metric,
      Function<ReportEvidence.MatrixRow, @Nullable Double> value,
      String dimension,
      Function<ReportEvidence.MatrixRow, @Nullable Integer> level,
      Function<ReportEvidence.MatrixRow, String> others) {
    Map<String, List<double[]>> groups = new LinkedHashMap<>();
    for (ReportEvidence.MatrixRow row : rows) {
      Double y = value.apply(row);
      Integer x = level.apply(row);
      if (y == null || x == null || !(y > 0) || x < 1) {
        continue;
      }
      groups
          .computeIfAbsent(others.apply(row), key -> new ArrayList<>())
          .add(new double[] {Math.log(x) / Math.log(2), Math.log(y)});
    }
    double sxy = 0;
    double sxx = 0;
    int cells = 0;
    int used = 0;
    for (List<double[]> group : groups.values()) {
      double meanX = mean(group, point -> point[0]);
      double meanY = mean(group, point -> point[1]);
      double groupSxx = 0;
      for (double[] point : group) {
        groupSxx += (point[0] - meanX) * (point[0] - meanX);
        sxy += (point[0] - meanX) * (point[1] - meanY);
      }
      if (groupSxx > 0) {
        sxx += groupSxx;
        cells += group.size();
        used++;
      }
    }
    if (sxx == 0) {
      return null; // no group has two levels of this dimension
    }
    return new Regression(runId, metric, dimension, Math.exp(sxy / sxx), cells, used);
  }

  private static double mean(List<double[]> points, ToDoubleFunction<double[]> part) {
    return points.stream().mapToDouble(part).average().orElse(0);
  }
}
