package dev.tokentrace.simulator.output;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.SimulationSettings;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a live simulated server writes while it runs: the chosen engine's files (as {@link
 * ScenarioWriter} writes them, but appended to and flushed line by line, so a tailer sees them
 * grow) and {@value #TRUTH_FILE}, the server's ground truth per request. Not thread-safe: the
 * engine thread is its only caller.
 */
public final class LiveOutputs implements Closeable {
  /** The server's per-request truth file in the output directory. */
  public static final String TRUTH_FILE = "server_truth.csv";

  private final SimObserver observer;
  private final List<Closeable> files;

  private LiveOutputs(SimObserver observer, List<Closeable> files) {
    this.observer = observer;
    this.files = files;
  }

  /**
   * Opens the engine's files and the truth file in {@code dir} (created if missing).
   *
   * @throws UncheckedIOException naming the file that could not be opened
   */
  public static LiveOutputs open(SimulationSettings simulation, OutputSettings output, Path dir) {
    requireNonNull(simulation, "simulation is null");
    requireNonNull(output, "output is null");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    List<SimObserver> observers = new ArrayList<>();
    List<Closeable> files = new ArrayList<>();
    Engines.open(simulation, output, dir, observers, files, true);
    ServerTruthWriter truth = new ServerTruthWriter(TextFile.live(dir.resolve(TRUTH_FILE)), output);
    observers.add(truth);
    files.add(truth);
    return new LiveOutputs(new FanOut(observers), files);
  }

  /** Every writer, in the order they were opened. */
  public SimObserver observer() {
    return observer;
  }

  @Override
  public void close() {
    UncheckedIOException failure = null;
    for (Closeable file : files) {
      try {
        file.close();
      } catch (IOException | UncheckedIOException e) {
        if (failure == null) {
          failure = new UncheckedIOException("cannot close live outputs", asIo(e));
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  private static IOException asIo(Exception e) {
    return e instanceof IOException ? (IOException) e : ((UncheckedIOException) e).getCause();
  }

  /**
   * {@value #TRUTH_FILE}: one row per request the server finished or aborted, when it did, with the
   * server-side components exactly as the engine's per-request export reports them: queue = first
   * scheduled − arrival, prefill = first token − first scheduled, decode = last token − first token
   * (ms, µs resolution).
   */
  static final class ServerTruthWriter implements SimObserver, Closeable {
    static final String HEADER =
        "request_id,server_request_id,arrival_ts,prompt_tokens,output_tokens,queue_ms,prefill_ms,"
            + "decode_ms,server_ttft_ms,server_e2e_ms,preemptions,status";

    private final TextFile out;
    private final OutputSettings output;
    private final WallClock utc;

    ServerTruthWriter(TextFile out, OutputSettings output) {
      this.out = out;
      this.output = output;
      this.utc = new WallClock(output.start(), java.time.ZoneOffset.UTC);
      if (out.path().toFile().length() == 0) {
        out.write(HEADER + "\n");
      }
    }

    @Override
    public void serverFinished(RequestView request, ServerView server) {
      StringBuilder line = row(request);
      long arrival = request.serverArrivalUs();
      Decimals.millis(line, request.firstScheduledUs() - arrival).append(',');
      Decimals.millis(line, request.firstTokenUs() - request.firstScheduledUs()).append(',');
      Decimals.millis(line, request.lastTokenUs() - request.firstTokenUs()).append(',');
      Decimals.millis(line, request.firstTokenUs() - arrival).append(',');
      Decimals.millis(line, request.lastTokenUs() - arrival).append(',');
      line.append(request.preemptions()).append(",ok");
      out.end();
    }

    @Override
    public void serverAborted(RequestView request, ServerView server) {
      StringBuilder line = row(request);
      line.append(",,,,,").append(request.preemptions()).append(",aborted");
      out.end();
    }

    private StringBuilder row(RequestView request) {
      StringBuilder line = out.begin();
      line.append(ServerIds.clientSide(request, output.format(), output.api())).append(',');
      line.append(serverId(request)).append(',');
      utc.isoMicros(line, request.serverArrivalUs());
      line.append(',').append(request.promptTokens()).append(',');
      return line.append(request.generatedTokens()).append(',');
    }

    private String serverId(RequestView request) {
      switch (output.format().engine()) {
        case VLLM:
          return ServerIds.vllmExternal(request, output.format(), output.api());
        case SGLANG:
          return ServerIds.sglangRid(request);
        case TRTLLM:
          return Long.toString(ServerIds.trtllmRequestId(request));
        default:
          throw new IllegalStateException("unhandled engine: " + output.format().engine());
      }
    }

    @Override
    public void close() {
      out.close();
    }
  }
}
