package dev.tokentrace.simulator.live;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpServer;
import dev.tokentrace.simulator.LiveEngine;
import dev.tokentrace.simulator.SimulationSettings;
import dev.tokentrace.simulator.output.FanOut;
import dev.tokentrace.simulator.output.LiveOutputs;
import dev.tokentrace.simulator.output.OutputSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simulated inference server, live: an OpenAI-compatible endpoint ({@code --api}'s path) that
 * streams each completion as the {@link LiveEngine} produces its tokens, while the engine's log
 * files and {@value LiveOutputs#TRUTH_FILE} grow in the output directory. Model time 0 is when it
 * starts; the log timestamps are that wall-clock instant plus model time on the engine's monotonic
 * clock. It also answers {@code /health} and {@code /v1/models} as vLLM does, and serves {@code
 * /metrics}. Thread-safe; {@link #close()} stops it.
 */
public final class LiveServer implements AutoCloseable {
  private final HttpServer http;
  private final ExecutorService workers;
  private final LiveEngine engine;
  private final LiveOutputs outputs;
  private final Instant started;

  private LiveServer(
      HttpServer http,
      ExecutorService workers,
      LiveEngine engine,
      LiveOutputs outputs,
      Instant started) {
    this.http = http;
    this.workers = workers;
    this.engine = engine;
    this.outputs = outputs;
    this.started = started;
  }

  /**
   * Starts serving on {@code address} (port 0: any free port), writing into {@code dir}.
   *
   * @throws UncheckedIOException naming the address or file that failed
   */
  public static LiveServer start(
      InetSocketAddress address, Path dir, SimulationSettings simulation, OutputSettings output) {
    requireNonNull(address, "address is null");
    // one clock: the wall clock is read once, here, and every logged time is this instant plus
    // the engine's monotonic time since the same moment (docs/live.md#simulated-server)
    long zeroNanos = System.nanoTime();
    Instant started = Instant.now();
    OutputSettings live =
        new OutputSettings(
            output.format(),
            started,
            output.zone(),
            output.requestLogging(),
            output.iterationLog(),
            output.accessLog(),
            output.otlp(),
            output.clientFormat(),
            output.api(),
            output.maxLogLen(),
            output.tpSize(),
            output.logMillis());
    LiveOutputs outputs = LiveOutputs.open(simulation, live, dir);
    MetricsEndpoint metrics = new MetricsEndpoint(output.format().engine());
    LiveEngine engine =
        new LiveEngine(simulation, new FanOut(List.of(outputs.observer(), metrics)));
    HttpServer http;
    try {
      http = HttpServer.create(address, 1024);
    } catch (IOException e) {
      outputs.close();
      throw new UncheckedIOException("cannot listen on " + address, e);
    }
    ExecutorService workers = Executors.newCachedThreadPool(new Workers());
    http.setExecutor(workers);
    http.createContext(
        "/v1/",
        new CompletionHandler(
            engine, live.api(), simulation.workload().maxModelLen(), simulation.client()));
    ServerInfo info = new ServerInfo(engine, simulation.workload().maxModelLen());
    http.createContext(ServerInfo.HEALTH, info);
    http.createContext(ServerInfo.MODELS, info);
    http.createContext("/metrics", metrics);
    // trtllm-serve mounts its Prometheus endpoint here
    // (docs/formats/trtllm.md#prometheus-and-tracing)
    http.createContext("/prometheus/metrics", metrics);
    engine.start(zeroNanos);
    http.start();
    return new LiveServer(http, workers, engine, outputs, started);
  }

  /** The port it listens on. */
  public int port() {
    return http.getAddress().getPort();
  }

  /** Wall-clock instant of model time 0. */
  public Instant started() {
    return started;
  }

  /** The wall-clock instant the logs give to now: {@link #started()} plus the engine's time. */
  public Instant loggedNow() {
    return started.plusNanos(engine.nowUs() * 1000);
  }

  /**
   * Stops accepting, ends the streams in flight, stops the engine after its current step and closes
   * the files (the span export and truth rows written so far are flushed).
   */
  @Override
  public void close() {
    http.stop(0);
    workers.shutdownNow();
    try {
      engine.close();
    } finally {
      outputs.close();
    }
  }

  /** Daemon threads, so a server that was not closed does not keep a JVM alive. */
  private static final class Workers implements java.util.concurrent.ThreadFactory {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task, "tokentrace-live-http-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    }
  }
}
