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

  static int run(String name, String engine, boolean otherMode, Path out, PrintWriter err) {
    return run(name, engine, null, otherMode, out, err);
  }

  /** {@code requestCount}: {@code --requests} when given, else the scenario's own count. */
  static int run(
      String name,
      String engine,
      @Nullable String requestCount,
      boolean otherMode,
      Path out,
      PrintWriter err) {
    PdScenario named = PdScenario.named(name);
    PdScenario scenario = named;
    if (named != null && requestCount != null) {
      try {
        scenario = named.withRequests(Integer.parseInt(requestCount.strip()));
      } catch (IllegalArgumentException e) {
        err.println("simulate: --requests '" + requestCount + "' is not a count >= 1");
        return ExitCodes.USAGE;
      }
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
