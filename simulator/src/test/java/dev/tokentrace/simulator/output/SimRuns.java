package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.scenario.ScenarioSettings;
import dev.tokentrace.simulator.scenario.Scenarios;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Test runs of whole scenarios into directories. */
final class SimRuns {
  private SimRuns() {}

  static RunSummary write(Path dir, @Nullable String scenario, String... overrides) {
    Map<String, String> explicit = new LinkedHashMap<>();
    for (int i = 0; i < overrides.length; i += 2) {
      explicit.put(overrides[i], overrides[i + 1]);
    }
    ScenarioSettings settings = ScenarioSettings.from(Scenarios.effective(scenario, explicit));
    return new ScenarioWriter(settings.simulation(), settings.output())
        .write(dir, "tokentrace simulate (test)", settings.parameters());
  }

  static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Rows of a CSV without quoting, as column name to value. */
  static List<Map<String, String>> csv(Path file) {
    List<String> lines = lines(file);
    String[] header = lines.get(0).split(",", -1);
    return lines.stream()
        .skip(1)
        .map(
            line -> {
              String[] cells = line.split(",", -1);
              if (cells.length != header.length) {
                throw new AssertionError(file + ": " + cells.length + " cells: " + line);
              }
              Map<String, String> row = new LinkedHashMap<>();
              for (int i = 0; i < header.length; i++) {
                row.put(header[i], cells[i]);
              }
              return row;
            })
        .toList();
  }

  /** A millisecond value with three decimals as exact microseconds. */
  static long micros(String millis) {
    return new java.math.BigDecimal(millis).movePointRight(3).longValueExact();
  }
}
