package dev.tokentrace.samples.sim.output;

import dev.tokentrace.samples.sim.SimObserver;
import dev.tokentrace.samples.sim.SimulationSettings;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;

/** Opens the writers of the chosen engine and format generation. */
final class Engines {
  private Engines() {}

  static void open(
      SimulationSettings simulation,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files) {
    switch (output.format().engine()) {
      case VLLM:
        openVllm(simulation, output, dir, observers, files);
        break;
      default:
        throw new IllegalArgumentException(
            "no writer yet for " + output.format().engine().id() + " " + output.format().version());
    }
  }

  private static void openVllm(
      SimulationSettings simulation,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files) {
    VllmLogWriter log =
        new VllmLogWriter(TextFile.create(dir.resolve("server.log")), output, simulation);
    files.add(log);
    log.startup(startup(simulation));
    observers.add(log);
    if (output.otlp()) {
      OtlpWriter otlp =
          new OtlpWriter(TextFile.create(dir.resolve("otlp.jsonl")), output, simulation.seed());
      files.add(otlp);
      observers.add(otlp);
    }
  }

  static ServerStartup startup(SimulationSettings simulation) {
    var server = simulation.server();
    long blocks = server.kvCapacityTokens() / server.blockSize();
    return new ServerStartup(
        42_000_000L,
        blocks * server.blockSize(),
        blocks,
        simulation.workload().maxModelLen(),
        server.chunkedPrefill(),
        server.maxBatchedTokens(),
        server.maxBatch());
  }
}
