package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.ingest.FollowIngestSummary;
import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.IngestSummary;
import dev.tokentrace.ingest.Resume;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.follow.ClientFollowSettings;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.follow.Follower;
import dev.tokentrace.ingest.sink.LakeSinkSettings;
import dev.tokentrace.ingest.sink.LiveSink;
import dev.tokentrace.ingest.sink.LoadedFiles;
import dev.tokentrace.ingest.sink.SinkSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The batch ingest use case: server files into the analysis file, exactly once, with the file
 * ledger of {@code run_files} deciding what is loaded, skipped, resumed or replaced
 * (docs/design.md#application-layer, docs/design.md#exactly-once). Through Kafka when brokers are
 * configured; without them in-process, each file's rows and ledger row in one DuckDB transaction,
 * so no broker is started (docs/design.md#embedded-broker). Says on {@code err} what it skips and
 * resumes, the broker it started and what it loaded, as {@code ingest} always did. {@link
 * #following} is {@code ingest --follow}: ship and sink in one process.
 *
 * <p>Longer than the house's 200 lines: batch and follow share the request's settings and the
 * broker line, and are the one {@code ingest} command's two modes.
 */
public final class Ingestion {
  /**
   * {@code --max-reject-ratio}'s default: the share of rejected lines above which a run exits 3.
   */
  public static final double DEFAULT_MAX_REJECT_RATIO = 0.01;

  /**
   * One batch ingest.
   *
   * @param sources the resolved server files
   * @param ingest Kafka (a configured cluster, or the embedded broker) and parsing limits
   * @param sink the analysis file the sink writes
   * @param replace load files again that are loaded already
   * @param viaBroker send the files through the embedded broker even though no brokers are
   *     configured (tests comparing both paths); without it and without configured brokers the
   *     files are loaded in-process
   */
  public record BatchRequest(
      List<SourceFile> sources,
      IngestSettings ingest,
      SinkSettings sink,
      boolean replace,
      boolean viaBroker) {
    public BatchRequest {
      sources = List.copyOf(sources);
      requireNonNull(ingest, "ingest is null");
      requireNonNull(sink, "sink is null");
    }

    /** The default path: in-process without configured brokers, through Kafka with them. */
    public BatchRequest(
        List<SourceFile> sources, IngestSettings ingest, SinkSettings sink, boolean replace) {
      this(sources, ingest, sink, replace, false);
    }

    /**
     * Whether the files skip Kafka: no brokers are configured and the broker path is not forced
     * (docs/design.md#embedded-broker).
     */
    public boolean inProcess() {
      return ingest.kafka().embedded() && !viaBroker;
    }
  }

  /**
   * One {@code ingest --follow}: ship and sink in one process.
   *
   * @param ingest the cluster (none configured: the embedded broker), line limit and timeouts
   * @param brokerDataDir where the embedded broker keeps its data across runs (ignored with a
   *     configured cluster)
   * @param follow the files or globs to follow, the shipper's id and commit interval
   * @param clients how client and gateway files among them are read
   * @param connectTimeout how long a run that ends by itself waits for an unreachable cluster
   * @param file the analysis file the DuckDB sink writes
   * @param lake the lake to write instead, or null
   * @param maxRejectRatio the share of rejected lines above which the run exits {@code REJECTS}
   */
  public record FollowRequest(
      IngestSettings ingest,
      Path brokerDataDir,
      FollowSettings follow,
      ClientFollowSettings clients,
      Duration connectTimeout,
      SinkSettings file,
      @Nullable LakeSinkSettings lake,
      double maxRejectRatio) {
    public FollowRequest {
      requireNonNull(ingest, "ingest is null");
      requireNonNull(brokerDataDir, "brokerDataDir is null");
      requireNonNull(follow, "follow is null");
      requireNonNull(clients, "clients is null");
      requireNonNull(connectTimeout, "connectTimeout is null");
      requireNonNull(file, "file is null");
    }
  }

  private Ingestion() {}

  /**
   * Starts the broker of an {@code ingest --follow} (the embedded one, or connects to the cluster)
   * and says where it runs; {@link Following#run} then ships and sinks, and closes it.
   */
  public static Following following(FollowRequest request, PrintWriter err) {
    return new Following(request, err);
  }

  /**
   * A running {@code ingest --follow}: {@link #run} on one thread until {@link #stop()} from
   * another (a signal handler), or until the files' ends with {@code --once}.
   */
  public static final class Following {
    private final FollowRequest request;
    private final Ingest ingest;
    private final Follower follower;

    private Following(FollowRequest request, PrintWriter err) {
      this.request = request;
      this.ingest =
          request.ingest().kafka().embedded()
              ? Ingest.open(request.ingest(), request.brokerDataDir())
              : Ingest.open(request.ingest());
      printBroker(ingest, err);
      this.follower =
          ingest
              .follower(request.follow(), request.clients())
              .connectTimeout(request.connectTimeout());
    }

    /** Asks the follower to commit what it holds and end; the sink drains it. Thread-safe. */
    public void stop() {
      follower.stop();
    }

    /**
     * Follows and sinks until stopped, then says what was sunk and the follower's summary; closes
     * the broker. Returns the exit status of the shipping ({@link Shipping#followed}).
     */
    public int run(PrintWriter err, ProgressWatch watch) {
      try (ingest) {
        LakeSinkSettings lake = request.lake();
        LiveSink sink = lake != null ? ingest.openLakeSink(lake) : ingest.openSink(request.file());
        String target = sink.target();
        FollowIngestSummary summary =
            ingest.follow(
                follower,
                sink,
                (running, live) -> watch.start(running::progress, live::progress)::close);
        err.println("ingest: sink " + summary.sunk().describe() + " -> " + target);
        int code = Shipping.followed(summary.shipped(), request.maxRejectRatio(), err);
        err.flush();
        return code;
      }
    }
  }

  /**
   * A batch ingest as the command runs it: loads what the ledger says is not loaded yet, then
   * prints the run's summary line and the verdicts; returns the exit status ({@link ExitStatus}):
   * {@code REJECTS} over the tolerance, else {@code PARTIAL} when a file was left out or not read
   * whole, else {@code OK}.
   *
   * @param fileProblems files left out while resolving the arguments (printed already); the files
   *     the run could not read are added
   * @param maxRejectRatio the share of rejected lines above which the run exits {@code REJECTS}
   */
  public static int load(
      BatchRequest request, List<String> fileProblems, double maxRejectRatio, PrintWriter err) {
    IngestSummary summary = batch(request, err);
    if (summary == null) { // every file is loaded already
      return ExitStatus.batch(ExitStatus.OK, fileProblems, "ingest", err);
    }
    fileProblems.addAll(summary.ship().failedFiles());
    int code = ExitStatus.tolerance(summary.ship().counts(), maxRejectRatio, 0, err);
    return ExitStatus.batch(code, fileProblems, "ingest", err);
  }

  /**
   * Loads what the ledger says is not loaded yet; returns the run's summary, or null when every
   * file is loaded already (said on {@code err}).
   */
  public static @Nullable IngestSummary batch(BatchRequest request, PrintWriter err) {
    LoadedFiles ledger = new LoadedFiles(request.sink().db());
    List<LoadedFiles.Decision> plan = ledger.plan(request.sources(), request.replace());
    List<LoadedFiles.Decision> toLoad = new ArrayList<>();
    for (LoadedFiles.Decision decision : plan) {
      if (decision.action() != LoadedFiles.Action.LOAD) {
        err.println("ingest: " + decision.file().path() + ": " + decision.why());
      }
      if (decision.action() != LoadedFiles.Action.SKIP) {
        toLoad.add(decision);
      }
    }
    if (toLoad.isEmpty()) {
      err.println("ingest: every file is loaded already; nothing to do -> " + request.sink().db());
      err.flush();
      return null;
    }
    if (request.inProcess()) {
      return inProcess(request, toLoad, err);
    }
    try (Ingest ingest = Ingest.open(request.ingest())) {
      printBroker(ingest, err);
      if (toLoad.stream().anyMatch(d -> d.action() != LoadedFiles.Action.LOAD)) {
        // Records a killed run left in the topics go in first, so that removing the file's rows
        // below removes them too, and a resumed file counts them as stored (a configured broker
        // keeps them; the embedded one has none).
        ingest.sink(request.sink());
      }
      Map<SourceFile, Resume> resume =
          ledger.begin(toLoad, removed -> err.println("ingest: " + removed));
      List<SourceFile> loading = toLoad.stream().map(LoadedFiles.Decision::file).toList();
      IngestSummary summary = ingest.run(loading, resume, request.sink());
      summary.ship().resumed().forEach(note -> err.println("ingest: " + note));
      summary.ship().failedFiles().forEach(problem -> err.println("ingest: " + problem));
      ledger.finish(
          toLoad.stream()
              .filter(d -> !unreadable(d.file(), summary.ship().failedFiles()))
              .toList());
      err.println("ingest: " + summary.describe() + " -> " + request.sink().db());
      return summary;
    }
  }

  /**
   * Without a broker: one DuckDB transaction per file holds its rows and its ledger row, so a file
   * is loaded whole or not at all, and no broker start is paid (docs/design.md#embedded-broker).
   * Said on {@code err}, since the path differs from the one with {@code --bootstrap-servers}.
   */
  private static IngestSummary inProcess(
      BatchRequest request, List<LoadedFiles.Decision> toLoad, PrintWriter err) {
    err.println(
        "ingest: in-process (no broker): "
            + toLoad.size()
            + (toLoad.size() == 1 ? " file" : " files")
            + ", each in one DuckDB transaction with its ledger row"
            + " (--bootstrap-servers sends them through Kafka)");
    for (LoadedFiles.Decision decision : toLoad) {
      if (decision.action() == LoadedFiles.Action.RESUME) {
        err.println(
            "ingest: "
                + decision.file().path()
                + ": in-process a file is not resumed: what the interrupted run stored is removed"
                + " and the file loaded whole");
      }
    }
    err.flush();
    IngestSummary summary =
        Ingest.loadInProcess(
            toLoad,
            request.sink(),
            request.ingest().maxLineBytes(),
            removed -> err.println("ingest: " + removed));
    summary.ship().failedFiles().forEach(problem -> err.println("ingest: " + problem));
    err.println("ingest: " + summary.describe() + " -> " + request.sink().db());
    err.flush();
    return summary;
  }

  /** A file that could not be read stays 'loading': the next run loads it again whole. */
  private static boolean unreadable(SourceFile file, List<String> failed) {
    String prefix = file.path() + ": cannot read:";
    return failed.stream().anyMatch(problem -> problem.startsWith(prefix));
  }

  /** The embedded broker's address and start time, when one was started. */
  public static void printBroker(Ingest ingest, PrintWriter err) {
    if (ingest.broker() != null) {
      err.println(
          "embedded kafka broker on "
              + ingest.bootstrapServers()
              + " (started in "
              + ingest.broker().startupTime().toMillis()
              + " ms)");
      err.flush();
    }
  }
}
