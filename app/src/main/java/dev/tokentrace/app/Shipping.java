package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.ShipSummary;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.follow.ClientFollowSettings;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.follow.FollowSummary;
import dev.tokentrace.ingest.follow.Follower;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.parse.Parsers;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The ship use cases: server files parsed and produced to a Kafka cluster, once ({@link #ship}) or
 * followed as they grow, exactly once across restarts ({@link Following};
 * docs/design.md#exactly-once). Says on {@code err} what {@code ship} always said.
 */
public final class Shipping {
  /**
   * How long a run that ends by itself (batch, {@code --once}) waits for an unreachable cluster
   * before it fails; a following shipper waits on, saying so.
   */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Follower.DEFAULT_CONNECT_TIMEOUT;

  /**
   * One batch {@code ship}.
   *
   * @param settings the cluster (never the embedded broker: a broker that dies with the run would
   *     lose what it acknowledged), line limit and timeouts
   * @param sources the resolved server files
   * @param fileProblems files left out while resolving the arguments (printed already)
   * @param maxRejectRatio the share of rejected lines above which the run exits {@code REJECTS}
   */
  public record BatchRequest(
      IngestSettings settings,
      List<SourceFile> sources,
      List<String> fileProblems,
      double maxRejectRatio) {
    public BatchRequest {
      requireNonNull(settings, "settings is null");
      sources = List.copyOf(sources);
      fileProblems = List.copyOf(fileProblems);
    }
  }

  /**
   * One {@code ship --follow}.
   *
   * @param kafka the cluster
   * @param follow the files or globs to follow, the shipper's id and commit interval
   * @param clients how client and gateway files among them are read
   * @param connectTimeout how long a run that ends by itself waits for an unreachable cluster
   * @param maxRejectRatio the share of rejected lines above which the run exits {@code REJECTS}
   */
  public record FollowRequest(
      KafkaSettings kafka,
      FollowSettings follow,
      ClientFollowSettings clients,
      Duration connectTimeout,
      double maxRejectRatio) {
    public FollowRequest {
      requireNonNull(kafka, "kafka is null");
      requireNonNull(follow, "follow is null");
      requireNonNull(clients, "clients is null");
      requireNonNull(connectTimeout, "connectTimeout is null");
    }
  }

  private Shipping() {}

  /**
   * Ships the files and returns when Kafka acknowledged every record; the exit status: {@code
   * REJECTS} over the tolerance, else {@code PARTIAL} when a file was left out, else {@code OK}.
   */
  public static int ship(BatchRequest request, PrintWriter err) {
    List<String> fileProblems = new ArrayList<>(request.fileProblems());
    try (Ingest ingest = Ingest.open(request.settings())) {
      ShipSummary summary = ingest.ship(request.sources());
      summary.failedFiles().forEach(problem -> err.println("ship: " + problem));
      err.println(
          "ship: " + summary.describe() + " -> " + summary.records() + " records acknowledged");
      fileProblems.addAll(summary.failedFiles());
      int code = ExitStatus.tolerance(summary.counts(), request.maxRejectRatio(), 0, err);
      return ExitStatus.batch(code, fileProblems, "ship", err);
    }
  }

  /** A {@code ship --follow} to run; nothing starts before {@link Following#run}. */
  public static Following following(FollowRequest request) {
    return new Following(request);
  }

  /**
   * Prints the summary of a follow run and returns its exit status: {@code REJECTS} when rejects
   * exceeded the tolerance (over all lines committed in the run), else {@code INFRASTRUCTURE} when
   * a file could not be followed or the last lines could not be committed, else {@code OK}.
   */
  public static int followed(FollowSummary summary, double maxRejectRatio, PrintWriter err) {
    summary.problems().forEach(problem -> err.println("cannot follow " + problem));
    err.println("ship: " + summary.describe());
    if (summary.uncommitted()) {
      err.println(
          "ship: kafka was unreachable at the stop: the lines read since the last commit are"
              + " shipped again from the checkpoint on the next run (none lost, none twice)");
    }
    int code = ExitStatus.tolerance(summary.counts(), maxRejectRatio, 0, err);
    if (code == ExitStatus.OK && (!summary.problems().isEmpty() || summary.uncommitted())) {
      return ExitStatus.INFRASTRUCTURE;
    }
    return code;
  }

  /**
   * A following shipper: {@link #run} on one thread until {@link #stop()} from another (a signal
   * handler), or until the files' ends with {@code --once}.
   */
  public static final class Following {
    private final FollowRequest request;
    private final Follower follower;

    private Following(FollowRequest request) {
      this.request = request;
      this.follower =
          new Follower(request.follow(), request.kafka(), Parsers::create, request.clients())
              .connectTimeout(request.connectTimeout());
    }

    /** Asks the run to commit what it holds and end. Thread-safe. */
    public void stop() {
      follower.stop();
    }

    /** Follows until stopped; says what it ships, and its summary; returns the exit status. */
    public int run(PrintWriter err, ProgressWatch watch) {
      FollowSettings settings = request.follow();
      err.println(
          "ship: following "
              + settings.sources().size()
              + " file(s)/glob(s) as shipper '"
              + settings.shipperId()
              + "' to "
              + request.kafka().bootstrapServers()
              + (settings.once() ? " (--once: until their ends)" : "; SIGTERM or Ctrl-C stops"));
      err.flush();
      try (ProgressWatch.Started started = watch.start(follower::progress, null)) {
        return followed(follower.run(), request.maxRejectRatio(), err);
      }
    }
  }
}
