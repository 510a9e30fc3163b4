package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.ArrivalMode;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.SimulationSettings;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.List;

/** Opens the writer of the client format chosen besides the project's CSV. */
final class ClientFiles {
  private ClientFiles() {}

  static void open(
      SimulationSettings simulation,
      OutputSettings output,
      Path dir,
      List<SimObserver> observers,
      List<Closeable> files) {
    SimObserver writer;
    switch (output.clientFormat()) {
      case CSV:
        return;
      case AIPERF:
        writer = new AiperfWriter(TextFile.create(dir.resolve("profile_export.jsonl")), output);
        break;
      case VLLM_BENCH:
        String rate =
            simulation.workload().arrival() == ArrivalMode.CLOSED
                ? "inf"
                : Double.toString(simulation.workload().ratePerSecond());
        writer = new VllmBenchWriter(dir, output, simulation.seed(), rate);
        break;
      case GUIDELLM:
        writer = new GuidellmWriter(TextFile.create(dir.resolve("benchmarks.json")), output);
        break;
      case GENAI_PERF:
        writer = new GenaiPerfWriter(TextFile.create(dir.resolve("profile_export.json")), output);
        break;
      default:
        throw new IllegalStateException("unhandled client format: " + output.clientFormat());
    }
    observers.add(writer);
    files.add((Closeable) writer);
  }
}
