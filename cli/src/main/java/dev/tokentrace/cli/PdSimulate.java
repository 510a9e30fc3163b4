package dev.tokentrace.cli;

import dev.tokentrace.simulator.pd.PdFiles;
import dev.tokentrace.simulator.pd.PdScenario;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** {@code simulate --pd SCENARIO} (docs/formats/pd.md#simulator): kept out of the command. */
final class PdSimulate {
  private PdSimulate() {}

  /**
   * @param requests {@code --requests} as given, or null: the scenario's own count otherwise
   */
  static int run(
      String name,
      String engine,
      @Nullable String requests,
      boolean otherMode,
      Path out,
      PrintWriter err) {
    PdScenario scenario = PdScenario.named(name);
    if (scenario != null && requests != null) {
      int count;
      try {
        count = Integer.parseInt(requests.trim());
      } catch (NumberFormatException e) {
        count = 0;
      }
      if (count < 1) {
        err.println("simulate: --requests must be a whole number >= 1, not '" + requests + "'");
        return ExitCodes.USAGE;
      }
      scenario = scenario.withRequests(count);
    }
    if (scenario == null || otherMode) {
      if (scenario == null) {
        err.println(
            "simulate: --pd '"
                + name
                + "' is not one of "
                + PdScenario.ALL.stream().map(PdScenario::name).collect(Collectors.joining(", ")));
      }
      if (otherMode) {
        err.println("simulate: --pd runs alone: not with --scenario or --serve");
      }
      return ExitCodes.USAGE;
    }
    if (!PdFiles.ENGINES.contains(engine)) {
      err.println(
          "simulate: --pd writes the formats of "
              + String.join(", ", PdFiles.ENGINES)
              + ", not --engine "
              + engine);
      return ExitCodes.USAGE;
    }
    try {
      int written = PdFiles.write(scenario, out, engine);
      err.println(
          "simulate: P/D scenario "
              + name
              + " in "
              + engine
              + "'s formats"
              + " ("
              + scenario.description()
              + "): "
              + written
              + " requests, "
              + scenario.prefillServers()
              + " prefill and "
              + scenario.decodeServers()
              + " decode server(s) written to "
              + out);
      return ExitCodes.OK;
    } catch (UncheckedIOException e) {
      err.println("simulate: " + e.getMessage() + ": " + e.getCause().getMessage());
      return ExitCodes.INFRASTRUCTURE;
    }
  }
}
