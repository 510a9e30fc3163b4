package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.kafka.KafkaUnavailableException;
import dev.tokentrace.ingest.kafka.KafkaWait;
import dev.tokentrace.ingest.sink.KafkaToLake;
import dev.tokentrace.ingest.sink.LakeSinkSettings;
import dev.tokentrace.ingest.sink.LiveSink;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.ingest.sink.SinkSummary;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * The sink use cases: the topics consumed into the analysis file or, as a consumer-group member,
 * into the Parquet lake, exactly once; until caught up ({@link #untilCaughtUp}) or until stopped
 * ({@link Following}). Both targets run the one consume loop of {@code ingest.sink.SinkLoop}
 * (docs/design.md#exactly-once). Says on {@code err} what {@code sink} always said.
 */
public final class Sinking {
  /**
   * One {@code sink}.
   *
   * @param ingest the cluster (never the embedded broker), line limit and timeouts
   * @param file the analysis file the DuckDB target writes
   * @param lake the lake to write instead, as one member of its consumer group, or null
   */
  public record Request(IngestSettings ingest, SinkSettings file, @Nullable LakeSinkSettings lake) {
    public Request {
      requireNonNull(ingest, "ingest is null");
      requireNonNull(file, "file is null");
    }
  }

  private Sinking() {}

  /**
   * Consumes until every partition reaches its end offset; a run that cannot reach Kafka within the
   * connect timeout fails (exit 1) for its caller to retry (docs/live.md#start-order).
   */
  public static int untilCaughtUp(Request request, PrintWriter err) {
    try (Ingest ingest = Ingest.open(request.ingest())) {
      LakeSinkSettings lake = request.lake();
      if (lake != null) {
        SinkSummary summary;
        try (KafkaToLake sink = ingest.openLakeSink(lake)) {
          summary = sink.runUntilCaughtUp();
        }
        err.println("sink: " + summary.describe() + " -> " + lake.lake());
        return ExitStatus.OK;
      }
      SinkSummary summary = ingest.sink(request.file());
      err.println("sink: " + summary.describe() + " -> " + request.file().db());
      return ExitStatus.OK;
    }
  }

  /** A {@code sink --follow} to run; nothing starts before {@link Following#run}. */
  public static Following following(Request request) {
    return new Following(request);
  }

  /**
   * A following sink: {@link #run} on one thread until {@link #stop()} from another (a signal
   * handler). It starts in any order with Kafka (docs/live.md#start-order): while Kafka does not
   * answer it waits, says so once and retries with a backoff; a stop ends the wait.
   */
  public static final class Following {
    private final Request request;
    private final KafkaWait wait;
    private final AtomicReference<LiveSink> running = new AtomicReference<>();

    private Following(Request request) {
      this.request = request;
      this.wait = new KafkaWait(request.ingest().kafka(), request.ingest().adminTimeout());
    }

    /** Asks the run to commit the batch it writes and end, or to stop waiting. Thread-safe. */
    public void stop() {
      wait.stop();
      LiveSink sink = running.get();
      if (sink != null) {
        sink.stop();
      }
    }

    /** Consumes until stopped; returns the exit status. */
    public int run(PrintWriter err, ProgressWatch watch) {
      while (true) {
        boolean reachable =
            wait.untilReachable(
                line -> {
                  err.println("sink: " + line);
                  err.flush();
                });
        if (!reachable) {
          err.println("sink: stopped before kafka answered; nothing was written");
          err.flush();
          return ExitStatus.OK;
        }
        Ingest ingest;
        LiveSink sink;
        try {
          ingest = Ingest.open(request.ingest());
        } catch (KafkaUnavailableException e) {
          err.println("sink: " + e.getMessage() + "; waiting again");
          continue;
        }
        try {
          LakeSinkSettings lake = request.lake();
          sink = lake != null ? ingest.openLakeSink(lake) : ingest.openSink(request.file());
        } catch (KafkaUnavailableException e) {
          ingest.close();
          err.println("sink: " + e.getMessage() + "; waiting again");
          continue;
        } catch (RuntimeException e) {
          ingest.close();
          throw e;
        }
        running.set(sink);
        if (wait.stopRequested()) {
          sink.stop();
        }
        try (ingest) {
          return follow(ingest, sink, err, watch);
        }
      }
    }

    private int follow(Ingest ingest, LiveSink sink, PrintWriter err, ProgressWatch watch) {
      LakeSinkSettings lake = request.lake();
      err.println(
          "sink: following "
              + ingest.bootstrapServers()
              + " into "
              + sink.target()
              + (lake != null ? " (group " + lake.group() + ")" : "")
              + "; SIGTERM or Ctrl-C stops");
      err.flush();
      SinkSummary summary;
      try (sink;
          ProgressWatch.Started started = watch.start(null, sink::progress)) {
        summary = sink.runUntilStopped();
      }
      err.println("sink: stopped with its last batch committed");
      err.println("sink: " + summary.describe() + " -> " + sink.target());
      err.flush();
      return ExitStatus.OK;
    }
  }
}
