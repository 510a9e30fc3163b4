package dev.tokentrace.bench.correlate;

import static java.lang.Double.NaN;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Times {@code tokentrace correlate} and {@code tokentrace report} against the bare DuckDB join
 * ({@code bare_join.sql}) on generated tables of each size, each step in its own JVM ({@link
 * Measured}) and repeated; prints a Markdown table of medians (times) and maxima (memory).
 *
 * <pre>
 * CorrelateBench [--sizes 100000,1000000] [--repeat 3] [--out bench/target/correlate]
 *                [--child-opts "-Xmx512m"] [--steps bare,correlate,report]
 * </pre>
 *
 * A size's database is generated once and kept ({@code DIR/requests-N.duckdb}); delete it to
 * regenerate. Each step's output is in {@code DIR/N-step-run.log}.
 */
public final class CorrelateBench {
  private final Path out;
  private final List<String> childOptions;
  private final List<String> steps;

  private CorrelateBench(Path out, List<String> childOptions, List<String> steps) {
    this.out = out;
    this.childOptions = childOptions;
    this.steps = steps;
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    List<Long> sizes = List.of(100_000L);
    int repeat = 3;
    Path out = Path.of("bench/target/correlate");
    List<String> childOptions = List.of("-Xmx512m");
    List<String> steps = List.of("bare", "correlate", "report");
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--sizes":
          sizes = Arrays.stream(value.split(",")).map(Long::valueOf).toList();
          break;
        case "--repeat":
          repeat = Integer.parseInt(value);
          break;
        case "--out":
          out = Path.of(value);
          break;
        case "--steps":
          steps = List.of(value.split(","));
          break;
        case "--child-opts":
          childOptions = List.of(value.strip().split("\\s+"));
          break;
        default:
          throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    Files.createDirectories(out);
    CorrelateBench bench = new CorrelateBench(out, childOptions, steps);
    List<String> rows = new ArrayList<>();
    for (long size : sizes) {
      rows.addAll(bench.size(size, repeat));
    }
    System.out.println();
    System.out.println(
        "| requests | step | wall s (median) | all runs s | CPU s (median) | wall vs bare"
            + " | CPU vs bare | peak heap MiB | peak RSS MiB | load 1 min |");
    System.out.println("| ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    rows.forEach(System.out::println);
  }

  private List<String> size(long size, int repeat) throws IOException, InterruptedException {
    Path db = out.resolve("requests-" + size + ".duckdb");
    List<String> rows = new ArrayList<>();
    if (!Files.exists(db)) {
      double[] generated =
          run(size + "-generate-1", "generate", db.toString(), Long.toString(size));
      rows.add(row(size, "generate (setup)", List.of(generated), new double[] {NaN, NaN}));
    }
    List<List<double[]>> byStep = new ArrayList<>();
    steps.forEach(step -> byStep.add(new ArrayList<>()));
    for (int r = 1; r <= repeat; r++) {
      for (int s = 0; s < steps.size(); s++) {
        byStep.get(s).add(run(size + "-" + steps.get(s) + "-" + r, arguments(steps.get(s), db)));
      }
    }
    int bareIndex = steps.indexOf("bare");
    double[] bare =
        bareIndex < 0
            ? new double[] {Double.NaN, Double.NaN}
            : new double[] {median(byStep.get(bareIndex), 0), median(byStep.get(bareIndex), 1)};
    for (int s = 0; s < steps.size(); s++) {
      rows.add(row(size, steps.get(s), byStep.get(s), bare));
    }
    return rows;
  }

  private String[] arguments(String step, Path db) {
    switch (step) {
      case "bare":
        return new String[] {"bare", db.toString()};
      case "correlate":
        return new String[] {"cli", "correlate", "--db", db.toString()};
      default:
        String report = db.toString().replace(".duckdb", "-report.md");
        return new String[] {"cli", "report", "--db", db.toString(), "--out", report};
    }
  }

  /** Runs one step in a new JVM; returns wall s, CPU s, heap peak MiB, RSS peak MiB, load. */
  private double[] run(String name, String... arguments) throws IOException, InterruptedException {
    Path result = out.resolve(name + ".result");
    Path log = out.resolve(name + ".log");
    Files.deleteIfExists(result);
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(childOptions);
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            Measured.class.getName(),
            result.toString()));
    command.addAll(List.of(arguments));
    double load = loadAverage();
    int code =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start()
            .waitFor();
    if (code != 0 || !Files.exists(result)) {
      throw new IllegalStateException(name + " failed (exit " + code + "): see " + log);
    }
    String[] fields = Files.readString(result, UTF_8).strip().split(" ");
    double[] values = new double[5];
    for (int i = 0; i < 4; i++) {
      values[i] = Double.parseDouble(fields[i]);
    }
    values[4] = load;
    System.err.printf(Locale.ROOT, "%s: %s (load %.2f)%n", name, String.join(" ", fields), load);
    return values;
  }

  /** A table row; {@code bare} holds the bare join's median wall and CPU seconds, or NaNs. */
  private static String row(long size, String step, List<double[]> runs, double[] bare) {
    double wall = median(runs, 0);
    double cpu = median(runs, 1);
    StringBuilder all = new StringBuilder();
    double heap = 0;
    double rss = 0;
    double load = 0;
    for (double[] run : runs) {
      all.append(all.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", run[0]));
      heap = Math.max(heap, run[2]);
      rss = Math.max(rss, run[3]);
      load = Math.max(load, run[4]);
    }
    return String.format(
        Locale.ROOT,
        "| %,d | %s | %.1f | %s | %.1f | %s | %s | %.0f | %.0f | ≤ %.1f |",
        size,
        step,
        wall,
        all,
        cpu,
        Double.isNaN(bare[0]) ? "-" : String.format(Locale.ROOT, "%.2f×", wall / bare[0]),
        Double.isNaN(bare[1]) ? "-" : String.format(Locale.ROOT, "%.2f×", cpu / bare[1]),
        heap,
        rss,
        load);
  }

  private static double median(List<double[]> runs, int field) {
    double[] values = runs.stream().mapToDouble(run -> run[field]).sorted().toArray();
    int middle = values.length / 2;
    return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
  }

  private static double loadAverage() {
    try {
      return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read /proc/loadavg", e);
    }
  }
}
