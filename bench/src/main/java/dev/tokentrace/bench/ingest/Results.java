package dev.tokentrace.bench.ingest;

import dev.tokentrace.bench.ingest.StageRun.Measured;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The Markdown table of one benchmark invocation: per stage the median run of the repeats. */
final class Results {
  private static final long TARGET_EVENTS_PER_SECOND = 250_000;
  private static final double TARGET_RATIO = 0.40;
  private static final long TARGET_HEAP_MIB = 512;

  private Results() {}

  static String table(long target, long events, List<List<Measured>> runs, String heap) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "events: %,d (target size %,d), runs: %d, every stage -Xmx%s%n%n",
            events,
            target,
            runs.size(),
            heap));
    out.append(
        "| stage | events/s (median) | runs s | vs read_json | CPU s | events per CPU-s | target | met? | peak heap used / live MiB | peak RSS MiB |\n");
    out.append("| --- | ---: | --- | ---: | ---: | ---: | --- | --- | ---: | ---: |\n");
    double baseline = events / median(runs, "read_json").seconds();
    for (Measured first : runs.get(0)) {
      Measured median = median(runs, first.stage());
      double rate = events / median.seconds();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %,.0f | %s | %.0f %% | %.1f | %,.0f | %s | %s | %d / %d | %d |%n",
              first.stage(),
              rate,
              seconds(runs, first.stage()),
              100 * rate / baseline,
              median.cpuSeconds(),
              events / median.cpuSeconds(),
              target(first.stage()),
              met(first.stage(), rate, baseline, median),
              median.peakHeapMib(),
              median.liveHeapMib(),
              median.peakRssMib()));
    }
    return out.toString();
  }

  private static String target(String stage) {
    return stage.equals("ingest") ? "≥ 250 k/s, ≥ 40 %, heap ≤ 512 MB" : "heap ≤ 512 MB";
  }

  private static String met(String stage, double rate, double baseline, Measured median) {
    boolean heap = median.peakHeapMib() <= TARGET_HEAP_MIB;
    if (!stage.equals("ingest")) {
      return heap ? "yes" : "no (heap)";
    }
    List<String> missed = new ArrayList<>();
    if (rate < TARGET_EVENTS_PER_SECOND) {
      missed.add("rate");
    }
    if (rate < TARGET_RATIO * baseline) {
      missed.add("ratio");
    }
    if (!heap) {
      missed.add("heap");
    }
    return missed.isEmpty() ? "yes" : "no (" + String.join(", ", missed) + ")";
  }

  private static String seconds(List<List<Measured>> runs, String stage) {
    List<String> all = new ArrayList<>();
    for (List<Measured> run : runs) {
      for (Measured measured : run) {
        if (measured.stage().equals(stage)) {
          all.add(String.format(Locale.ROOT, "%.1f", measured.seconds()));
        }
      }
    }
    return String.join(", ", all);
  }

  private static Measured median(List<List<Measured>> runs, String stage) {
    List<Measured> all = new ArrayList<>();
    for (List<Measured> run : runs) {
      for (Measured measured : run) {
        if (measured.stage().equals(stage)) {
          all.add(measured);
        }
      }
    }
    all.sort(IngestBench.bySeconds());
    return all.get(all.size() / 2);
  }
}
