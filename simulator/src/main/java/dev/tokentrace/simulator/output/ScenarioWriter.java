package dev.tokentrace.simulator.output;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.Simulation;
import dev.tokentrace.simulator.SimulationSettings;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one scenario into a directory: the engine's outputs for the chosen format generation, the
 * client file(s), {@code truth.csv} and {@code SOURCE.md}. The entry point of the simulator.
 * Thread-safe: each {@code write} builds its own model and writers.
 */
public final class ScenarioWriter {
  private final SimulationSettings simulation;
  private final OutputSettings output;

  public ScenarioWriter(SimulationSettings simulation, OutputSettings output) {
    this.simulation = requireNonNull(simulation, "simulation is null");
    this.output = requireNonNull(output, "output is null");
  }

  /**
   * Writes the scenario into {@code dir} (created if missing; files of the same names replaced).
   *
   * @param command the command line to record in SOURCE.md
   * @param parameters every effective parameter, for SOURCE.md
   * @throws UncheckedIOException naming the file that could not be written
   */
  public RunSummary write(Path dir, String command, Map<String, String> parameters) {
    return write(dir, command, parameters, new SimObserver() {});
  }

  /**
   * As {@link #write(Path, String, Map)}, also telling {@code progress} every fact (e.g. to show
   * progress on a terminal); it must not keep what it is told.
   */
  public RunSummary write(
      Path dir, String command, Map<String, String> parameters, SimObserver progress) {
    List<Closeable> files = new ArrayList<>();
    List<SimObserver> observers = new ArrayList<>();
    Counter counter = new Counter();
    observers.add(counter);
    observers.add(progress);
    try {
      Files.createDirectories(dir);
      Engines.open(simulation, output, dir, observers, files);
      TruthWriter truth = new TruthWriter(TextFile.create(dir.resolve("truth.csv")), output);
      observers.add(truth);
      files.add(truth);
      if (output.clientFile()) {
        ClientCsvWriter csv =
            new ClientCsvWriter(TextFile.create(dir.resolve("client_timings.csv")), output);
        observers.add(csv);
        files.add(csv);
        ClientFiles.open(simulation, output, dir, observers, files);
      }
      GatewayFiles.open(simulation.network().gateway(), output, dir, observers, files);
      GpuTelemetryFiles.open(simulation.gpu(), output, dir, observers, files);
      MetricsScrapeFile.open(simulation.gpu().metricsScrapeS(), output, dir, observers, files);
      new Simulation(simulation, new FanOut(observers)).run();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write scenario into " + dir, e);
    } finally {
      closeAll(files);
    }
    List<Path> written = new ArrayList<>(listFiles(dir));
    Path source = dir.resolve("SOURCE.md");
    SourceNotes.write(source, simulation, output, command, parameters, written);
    written.add(source);
    long bytes = 0;
    for (Path path : written) {
      bytes += size(path);
    }
    return new RunSummary(counter.requests, counter.attempts, counter.lastUs, written, bytes);
  }

  private static void closeAll(List<Closeable> files) {
    UncheckedIOException failure = null;
    for (Closeable file : files) {
      try {
        file.close();
      } catch (IOException | UncheckedIOException e) {
        if (failure == null) {
          failure =
              e instanceof UncheckedIOException
                  ? (UncheckedIOException) e
                  : new UncheckedIOException((IOException) e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static List<Path> listFiles(Path dir) {
    try (var stream = Files.walk(dir)) {
      List<Path> paths = new ArrayList<>();
      stream
          .filter(Files::isRegularFile)
          .filter(path -> !path.getFileName().toString().equals("SOURCE.md"))
          .sorted()
          .forEach(paths::add);
      return paths;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + dir, e);
    }
  }

  private static long size(Path path) {
    try {
      return Files.size(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot stat " + path, e);
    }
  }

  /** Counts requests and attempts, and remembers the last moment of the run. */
  private static final class Counter implements SimObserver {
    private long requests;
    private long attempts;
    private long lastUs;

    @Override
    public void advance(long nowUs, ServerView server) {
      lastUs = nowUs;
    }

    @Override
    public void clientDone(RequestView request) {
      attempts++;
      if (request.finalAttempt()) {
        requests++;
      }
    }
  }
}
