package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.correlate.attribution.LatencyComponent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The measured accuracy figures, one Markdown table row per scenario, written to {@code
 * cli/target/accuracy.md} after the accuracy tests ran. Not thread-safe (JUnit runs the tests of a
 * class on one thread).
 */
final class AccuracySummary {
  private static final String HEADER =
      "| scenario | class | requests | join | max abs error ms: client queue | network | queue"
          + " | prefill | decode | within max(1 ms, 1%) | dominant agrees | true bottleneck"
          + " | report names |\n"
          + "|"
          + " --- |".repeat(13)
          + "\n";

  private final Map<String, String> rows = new TreeMap<>();

  /**
   * A scenario whose components were compared with the truth; {@code join} says how its requests
   * were paired with server records.
   */
  void compared(
      ScenarioRun run,
      String accuracyClass,
      AccuracyFigures figures,
      List<TruthRow> truth,
      String join) {
    Map.Entry<LatencyComponent, Double> top =
        ComponentShares.ranked(ComponentShares.ofTruth(truth)).get(0);
    List<Map.Entry<LatencyComponent, Double>> reported =
        ComponentShares.ranked(ComponentShares.ofReport(run.report()));
    List<String> cells = new ArrayList<>();
    cells.add(run.scenario().id());
    cells.add(accuracyClass);
    cells.add(Integer.toString(figures.compared()));
    cells.add(join);
    cells.addAll(figures.maxErrorCells());
    cells.add(figures.withinCell());
    cells.add(figures.dominantCell());
    cells.add(share(top));
    cells.add(reported.isEmpty() ? "none (nothing attributed)" : share(reported.get(0)));
    rows.put(run.scenario().id(), "| " + String.join(" | ", cells) + " |");
  }

  /** A low-confidence scenario: what it does give, as checked against the truth. */
  void lowConfidence(ScenarioRun run, String achieved) {
    rows.put(
        run.scenario().id(),
        "| "
            + run.scenario().id()
            + " | low-confidence | "
            + run.attributed().size()
            + " | no durations to attribute | n/a | n/a | n/a | n/a | n/a | "
            + achieved
            + " | n/a | n/a | none (labelled low confidence) |");
  }

  /** Writes the table and returns it. */
  String write(Path file) throws IOException {
    StringBuilder out = new StringBuilder(HEADER);
    rows.values().forEach(row -> out.append(row).append('\n'));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, out, UTF_8);
    return out.toString();
  }

  private static String share(Map.Entry<LatencyComponent, Double> share) {
    return String.format(Locale.ROOT, "%s (%.1f%%)", share.getKey().id(), 100 * share.getValue());
  }
}
