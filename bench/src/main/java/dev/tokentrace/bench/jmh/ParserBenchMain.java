package dev.tokentrace.bench.jmh;

import static java.lang.Double.NaN;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link ParserBench} with JMH's own command-line options and prints, per line kind, the
 * parser's lines/s against the splitter's on the same bytes, their ratio and the issue 8 targets
 * (stats and batch lines: at least 1 M lines/s per core and 40 % of splitting). Per core means per
 * CPU-second ({@link CpuTimeProfiler}, which this adds), so that the machine's other load does not
 * count against the parser.
 */
public final class ParserBenchMain {
  private static final double MIN_LINES_PER_S = 1_000_000;
  private static final double MIN_RATIO = 0.40;

  private ParserBenchMain() {}

  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    Options options =
        new OptionsBuilder()
            .parent(new CommandLineOptions(args))
            .addProfiler(CpuTimeProfiler.class)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<LineKind, double[]> byKind = new EnumMap<>(LineKind.class);
    for (RunResult result : results) {
      LineKind kind = LineKind.valueOf(result.getParams().getParam("kind"));
      String method = result.getParams().getBenchmark().replaceAll(".*\\.", "");
      double[] scores = byKind.computeIfAbsent(kind, k -> new double[] {NaN, NaN, NaN, NaN});
      int column = method.equals("parse") ? 0 : 2;
      scores[column] = result.getPrimaryResult().getScore();
      Result<?> cpu = result.getSecondaryResults().get(CpuTimeProfiler.LABEL);
      if (cpu != null) {
        scores[column + 1] = cpu.getScore();
      }
    }
    System.out.println();
    System.out.println(
        "| line kind | parse lines/s (wall) | parse lines/cpu-s | split lines/cpu-s (baseline)"
            + " | parse / split (cpu) | target | met? |");
    System.out.println("| --- | ---: | ---: | ---: | ---: | --- | --- |");
    byKind.forEach((kind, scores) -> System.out.println(row(kind, scores)));
  }

  /** Scores are parse wall, parse CPU, split wall, split CPU; targets are judged on CPU. */
  private static String row(LineKind kind, double[] scores) {
    double ratio = scores[1] / scores[3];
    boolean targeted = kind.statsOrBatch();
    String met =
        !targeted ? "-" : scores[1] >= MIN_LINES_PER_S && ratio >= MIN_RATIO ? "yes" : "no";
    return String.format(
        Locale.ROOT,
        "| %s | %,.0f | %,.0f | %,.0f | %.0f %% | %s | %s |",
        kind,
        scores[0],
        scores[1],
        scores[3],
        ratio * 100,
        targeted ? "≥ 1 M/s and ≥ 40 %" : "-",
        met);
  }
}
