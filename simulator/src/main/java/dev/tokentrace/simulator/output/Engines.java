package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.SimulationSettings;
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
    open(simulation, output, dir, observers, files, false);
  }

  /** As above; {@code live} files are appended to and flushed line by line (a live server). */
  static void open(
      SimulationSettings simulation,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files,
      boolean live) {
    switch (output.format().engine()) {
      case VLLM:
        openVllm(simulation, output, dir, observers, files, live);
        break;
      case SGLANG:
        openSglang(simulation, output, dir, observers, files, live);
        break;
      case TRTLLM:
        openTrtLlm(simulation, output, dir, observers, files, live);
        break;
      default:
        throw new IllegalStateException("unhandled engine: " + output.format().engine());
    }
  }

  private static void openTrtLlm(
      SimulationSettings simulation,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files,
      boolean live) {
    int maxBatch = simulation.server().maxBatch();
    TrtLlmLogWriter log =
        new TrtLlmLogWriter(file(live, dir.resolve("server.log")), output, maxBatch);
    files.add(log);
    log.startup(startup(simulation), Pids.api(simulation.seed()));
    observers.add(log);
    TrtLlmStatsWriter stats =
        new TrtLlmStatsWriter(file(live, dir.resolve("iteration_stats.jsonl")), output, maxBatch);
    files.add(stats);
    observers.add(stats);
    TrtLlmPerfMetricsWriter perf =
        new TrtLlmPerfMetricsWriter(
            file(live, dir.resolve("perf_metrics.jsonl")),
            simulation.seed(),
            simulation.server().blockSize());
    files.add(perf);
    observers.add(perf);
  }

  private static void openSglang(
      SimulationSettings simulation,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files,
      boolean live) {
    SglangLogWriter log = new SglangLogWriter(file(live, dir.resolve("server.log")), output);
    files.add(log);
    log.startup(startup(simulation));
    observers.add(log);
    if (output.format() == EngineFormat.SGLANG_0_5) {
      SglangMetricsWriter metrics = new SglangMetricsWriter(dir.resolve("metrics"), output);
      files.add(metrics);
      observers.add(metrics);
    }
  }

  private static void openVllm(
      SimulationSettings simulation,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files,
      boolean live) {
    VllmLogWriter log =
        new VllmLogWriter(file(live, dir.resolve("server.log")), output, simulation);
    files.add(log);
    log.startup(startup(simulation));
    observers.add(log);
    if (output.otlp()) {
      OtlpWriter otlp =
          new OtlpWriter(file(live, dir.resolve("otlp.jsonl")), output, simulation.seed());
      files.add(otlp);
      observers.add(otlp);
    }
  }

  private static TextFile file(boolean live, Path path) {
    return live ? TextFile.live(path) : TextFile.create(path);
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
        server.maxBatch(),
        server.prefixCaching());
  }
}
