package dev.tokentrace.cli;

import dev.tokentrace.simulator.pd.PdFiles;
import dev.tokentrace.simulator.pd.PdScenario;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.stream.Collectors;

/** {@code simulate --pd SCENARIO} (docs/formats/pd.md#simulator): kept out of the command. */
final class PdSimulate {
  private PdSimulate() {}

  static int run(String name, String engine, boolean otherMode, Path out, PrintWriter err) {
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
    try {
      int requests = PdFiles.write(scenario, out, engine);
      err.println(
          "simulate: P/D scenario "
              + name
              + " in "
              + engine
              + "'s formats"
              + " ("
              + scenario.description()
              + "): "
              + requests
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
