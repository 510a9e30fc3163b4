package dev.tokentrace.cli;

import dev.tokentrace.simulator.pd.PdFiles;
import dev.tokentrace.simulator.pd.PdScenario;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * {@code simulate --pd SCENARIO [--engine E] [--requests N]} (docs/formats/pd.md#simulator): kept
 * out of the command.
 */
final class PdSimulate {
  private PdSimulate() {}

  static int run(
      String name,
      String engine,
      @Nullable String requests,
      boolean otherMode,
      Path out,
      PrintWriter err) {
    PdScenario scenario = PdScenario.named(name);
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
    if (requests != null) {
      int n;
      try {
        n = Integer.parseInt(requests.strip());
      } catch (NumberFormatException e) {
        n = 0;
      }
      if (n < 1) {
        err.println(
            "simulate: --requests with --pd takes a whole number >= 1, not '" + requests + "'");
        return ExitCodes.USAGE;
      }
      scenario = scenario.withRequests(n);
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
