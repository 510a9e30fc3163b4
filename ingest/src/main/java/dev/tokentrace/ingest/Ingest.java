package dev.tokentrace.ingest;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.ingest.follow.ClientFollowSettings;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.follow.FollowSummary;
import dev.tokentrace.ingest.follow.Follower;
import dev.tokentrace.ingest.kafka.EmbeddedBroker;
import dev.tokentrace.ingest.kafka.EventProducer;
import dev.tokentrace.ingest.kafka.KafkaProblems;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.DirectLoad;
import dev.tokentrace.ingest.sink.KafkaToDuckDb;
import dev.tokentrace.ingest.sink.KafkaToLake;
import dev.tokentrace.ingest.sink.LakeSinkSettings;
import dev.tokentrace.ingest.sink.LiveSink;
import dev.tokentrace.ingest.sink.LoadedFiles;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.ingest.sink.SinkSummary;
import dev.tokentrace.ingest.tail.FileProblems;
import dev.tokentrace.ingest.tail.LogFileReader;
import dev.tokentrace.ingest.tail.ParseCounts;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.LineParser;
import dev.tokentrace.parse.ParseSettings;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.RejectRow;
import dev.tokentrace.parse.Rejection;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest service: log files → parser → Kafka ({@link #ship}), Kafka → DuckDB ({@link #sink}),
 * or both concurrently in one process ({@link #run}). {@link #open} connects to the configured
 * brokers, or starts an {@link EmbeddedBroker} when there are none, and creates the topics.
 *
 * <pre>{@code
 * try (Ingest ingest = Ingest.open(IngestSettings.of(KafkaSettings.defaults()))) {
 *   IngestSummary summary = ingest.run(files, SinkSettings.defaults(Path.of("analysis.duckdb")));
 * }
 * }</pre>
 *
 * <p>Bad input never throws: it is counted and lands in {@code rejects}. Infrastructure failures
 * (Kafka unreachable, DuckDB file locked) throw {@link IllegalStateException} naming the resource.
 * Not thread-safe: one caller at a time.
 */
public final class Ingest implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Ingest.class);

  private final IngestSettings settings;
  private final KafkaSettings kafka;
  private final @Nullable EmbeddedBroker broker;
  private final Clock clock;
  private final BiFunction<Engine, ParseSettings, LineParser> parsers;

  private Ingest(
      IngestSettings settings,
      KafkaSettings kafka,
      @Nullable EmbeddedBroker broker,
      Clock clock,
      BiFunction<Engine, ParseSettings, LineParser> parsers) {
    this.settings = settings;
    this.kafka = kafka;
    this.broker = broker;
    this.clock = clock;
    this.parsers = parsers;
  }

  /** Opens with the system clock and the engines' parsers. */
  public static Ingest open(IngestSettings settings) {
    return open(settings, Clock.systemUTC(), Parsers::create);
  }

  /**
   * Opens like {@link #open(IngestSettings)}, but an embedded broker (no brokers configured) keeps
   * its data in {@code brokerDataDir} across runs: what {@code ingest --follow} needs, since its
   * checkpoints live in the broker and the sink's stored offsets refer to its topics.
   */
  public static Ingest open(IngestSettings settings, Path brokerDataDir) {
    requireNonNull(brokerDataDir, "brokerDataDir is null");
    return open(settings, Clock.systemUTC(), Parsers::create, brokerDataDir);
  }

  /**
   * @param clock stamps {@code rejects.ingested_ts}
   * @param parsers creates the parser for each file (tests pass their own)
   */
  static Ingest open(
      IngestSettings settings, Clock clock, BiFunction<Engine, ParseSettings, LineParser> parsers) {
    return open(settings, clock, parsers, null);
  }

  private static Ingest open(
      IngestSettings settings,
      Clock clock,
      BiFunction<Engine, ParseSettings, LineParser> parsers,
      @Nullable Path brokerDataDir) {
    requireNonNull(settings, "settings is null");
    requireNonNull(clock, "clock is null");
    requireNonNull(parsers, "parsers is null");
    EmbeddedBroker broker =
        settings.kafka().embedded() ? EmbeddedBroker.start(0, brokerDataDir) : null;
    try {
      KafkaSettings kafka =
          broker == null
              ? settings.kafka()
              : settings.kafka().withBootstrapServers(broker.bootstrapServers());
      try {
        ensureTopics(kafka, settings.adminTimeout());
      } catch (RuntimeException e) {
        IllegalArgumentException config = KafkaProblems.configError(e, kafka.adminProperties());
        if (config != null) {
          throw config;
        }
        if (KafkaProblems.timedOut(e)) {
          throw KafkaProblems.unreachable(
              bootstrapServersOf(kafka), settings.adminTimeout(), "--connect-timeout", e);
        }
        throw e;
      }
      return new Ingest(settings, kafka, broker, clock, parsers);
    } catch (RuntimeException e) {
      if (broker != null) {
        broker.close();
      }
      throw e;
    }
  }

  private static void ensureTopics(KafkaSettings kafka, Duration timeout) {
    Admin admin = Admin.create(kafka.adminProperties());
    try {
      kafka.topics().ensureExist(admin, kafka.partitions(), timeout);
    } finally {
      // bounded: a plain close waits for the calls an unreachable cluster never answers
      admin.close(Duration.ofSeconds(1));
    }
  }

  private static String bootstrapServersOf(KafkaSettings kafka) {
    return String.valueOf(kafka.bootstrapServers());
  }

  /** The brokers in use: the configured ones or the embedded broker's loopback address. */
  public String bootstrapServers() {
    return requireNonNull(kafka.bootstrapServers(), "bootstrapServers");
  }

  /** The embedded broker, when one was started. */
  public @Nullable EmbeddedBroker broker() {
    return broker;
  }

  /**
   * Parses every file and sends its events and rejects to Kafka; returns when Kafka acknowledged
   * all of them. A file that cannot be read is reported in {@link ShipSummary#failedFiles()} and
   * the others are still shipped.
   *
   * @throws IllegalStateException when Kafka fails to take the records
   */
  public ShipSummary ship(List<SourceFile> files) {
    return ship(files, Map.of(), false);
  }

  private ShipSummary ship(
      List<SourceFile> files, Map<SourceFile, Resume> resume, boolean fileOrdered) {
    long started = System.nanoTime();
    ParseCounts counts = ParseCounts.ZERO;
    List<String> failed = new ArrayList<>();
    List<String> resumed = new ArrayList<>();
    long records;
    try (EventProducer producer =
        fileOrdered ? EventProducer.openFileOrdered(kafka) : EventProducer.open(kafka)) {
      for (SourceFile file : files) {
        Resume point = resume.getOrDefault(file, Resume.NONE);
        counts = counts.plus(shipFile(file, point, producer, failed, resumed));
      }
      producer.flush();
      records = producer.acknowledged();
    }
    checkBroker();
    ShipSummary summary =
        new ShipSummary(
            files.size(),
            failed,
            counts,
            records,
            Duration.ofNanos(System.nanoTime() - started),
            resumed);
    log.info("ship: {}", summary.describe());
    return summary;
  }

  /**
   * Consumes everything in the topics now into the DuckDB file, exactly once (offsets are kept in
   * the file), and returns what it wrote.
   */
  public SinkSummary sink(SinkSettings sinkSettings) {
    try (KafkaToDuckDb sink = openSink(sinkSettings)) {
      SinkSummary summary = sink.runUntilCaughtUp();
      checkBroker();
      return summary;
    } catch (RuntimeException e) {
      throw KafkaToDuckDb.unreachableIfTimedOut(e, kafka, settings.adminTimeout());
    }
  }

  /**
   * Ships the files and sinks them into DuckDB concurrently; returns when every record shipped is
   * in the DuckDB file.
   */
  public IngestSummary run(List<SourceFile> files, SinkSettings sinkSettings) {
    return run(files, Map.of(), sinkSettings);
  }

  /**
   * Like {@link #run(List, SinkSettings)}, for files an interrupted run loaded in part: each file
   * in {@code resume} is parsed whole (the parser's state needs every line) but the records its
   * {@link Resume} counts as stored are not shipped again. Each file's events go to one partition
   * (docs/follow.md#batch-resume), which is what makes the stored part of a killed run a prefix.
   */
  public IngestSummary run(
      List<SourceFile> files, Map<SourceFile, Resume> resume, SinkSettings sinkSettings) {
    requireNonNull(resume, "resume is null");
    long started = System.nanoTime();
    try (KafkaToDuckDb sink = openSink(sinkSettings)) {
      FutureTask<SinkSummary> sinking = new FutureTask<>(sink::runUntilStopped);
      new Thread(sinking, "tokentrace-sink").start();
      ShipSummary shipped = null;
      try {
        shipped = ship(files, resume, true);
      } finally {
        if (shipped == null) {
          // Shipping failed: end the sink (it keeps what it committed) before closing it.
          sink.stop();
          awaitQuietly(sinking);
        }
      }
      sink.stopWhenCaughtUp();
      SinkSummary sunk = await(sinking);
      IngestSummary summary =
          new IngestSummary(shipped, sunk, Duration.ofNanos(System.nanoTime() - started));
      log.info("ingest: {}", summary.describe());
      return summary;
    }
  }

  /**
   * Batch ingest without Kafka (docs/design.md#embedded-broker): parses each file and writes its
   * events and rejections straight into the DuckDB file, one transaction per file that also marks
   * it loaded in {@code ingest_files} ({@link DirectLoad}); no broker starts. A file loaded before
   * or in part ({@link LoadedFiles.Action#RELOAD}, {@link LoadedFiles.Action#RESUME}) has its
   * stored rows removed in the same transaction and is loaded whole. A file that cannot be read is
   * rolled back, reported in {@link ShipSummary#failedFiles()} and stays as it was; the others are
   * loaded. {@code notes} hears what is removed. The summary counts each file's rows as the sink's
   * does; its "records" are the rows written, its "batches" the files committed.
   */
  public static IngestSummary loadInProcess(
      List<LoadedFiles.Decision> decisions,
      SinkSettings sinkSettings,
      int maxLineBytes,
      Consumer<String> notes) {
    requireNonNull(decisions, "decisions is null");
    requireNonNull(notes, "notes is null");
    long started = System.nanoTime();
    Clock clock = Clock.systemUTC();
    ParseCounts counts = ParseCounts.ZERO;
    List<String> failed = new ArrayList<>();
    Map<String, Long> events = new LinkedHashMap<>();
    long rejects = 0;
    long committed = 0;
    try (DirectLoad load = DirectLoad.open(sinkSettings)) {
      for (LoadedFiles.Decision decision : decisions) {
        if (decision.action() == LoadedFiles.Action.SKIP) {
          continue;
        }
        SourceFile file = decision.file();
        DirectLoad.FileLoad rows = load.begin(decision, clock.instant());
        if (decision.action() != LoadedFiles.Action.LOAD) {
          notes.accept(file.path() + ": " + rows.removed() + " stored rows removed");
        }
        LineParser parser = Parsers.create(file.engine(), file.parse());
        SourceParser source = new SourceParser(file.path().toString(), file.engine(), parser, rows);
        ParseCounts fileCounts;
        try {
          fileCounts = source.readFile(file.path(), maxLineBytes);
        } catch (IOException e) {
          rows.rollback();
          String problem =
              file.path()
                  + ": cannot read: "
                  + FileProblems.describe(e)
                  + " (nothing of it was stored)";
          log.warn("ingest: {}", problem);
          failed.add(problem);
          source.finish();
          counts = counts.plus(source.counts());
          continue;
        }
        Map<String, Long> written = rows.commit();
        committed++;
        counts = counts.plus(fileCounts);
        rejects += written.remove(RejectRow.TABLE.name());
        written.forEach((table, n) -> events.merge(table, n, Long::sum));
        if (source.brokenAt() > 0) {
          String problem = brokenGzip(file, source.brokenAt());
          log.warn("ingest: {}", problem);
          failed.add(problem);
        }
      }
    }
    long rows = rejects + events.values().stream().mapToLong(Long::longValue).sum();
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    ShipSummary shipped = new ShipSummary(decisions.size(), failed, counts, rows, elapsed);
    SinkSummary sunk = new SinkSummary(events, rejects, 0, committed, elapsed);
    IngestSummary summary = new IngestSummary(shipped, sunk, elapsed);
    log.info("ingest (in-process): {}", summary.describe());
    return summary;
  }

  private static String brokenGzip(SourceFile file, long brokenAt) {
    return file.path()
        + ":"
        + brokenAt
        + ": "
        + LogFileReader.CORRUPT_GZIP
        + " (truncated?): its "
        + (brokenAt - 1)
        + " lines before were loaded, the rest of the file is missing";
  }

  /**
   * Follows live files and sinks them in one process ({@code ingest --follow}; {@code sink} from
   * {@link #openSink} or {@link #openLakeSink}, closed here): runs {@code follower} on the calling
   * thread and the sink on its own until the follower ends ({@link Follower#stop()} from another
   * thread, or {@code --once}); then the sink drains what the follower committed, up to the ends of
   * its transactions whether their markers are visible yet or not
   * (docs/follow.md#draining-the-last-transaction), and stops. {@code watch} is started once both
   * run (the CLI's status lines) and closed when the follower ends.
   */
  public FollowIngestSummary follow(Follower follower, LiveSink sink, FollowWatch watch) {
    requireNonNull(follower, "follower is null");
    requireNonNull(sink, "sink is null");
    requireNonNull(watch, "watch is null");
    try (sink) {
      FutureTask<SinkSummary> sinking = new FutureTask<>(sink::runUntilStopped);
      new Thread(sinking, "tokentrace-sink").start();
      FollowSummary shipped = null;
      try (AutoCloseableWatch running = watch.start(follower, sink)::close) {
        shipped = follower.run();
      } finally {
        // What was committed is all there is to write: the sink drains it, then stops.
        sink.stopWhenCaughtUp(follower.committedEnds());
        if (shipped == null) {
          awaitQuietly(sinking);
        }
      }
      return new FollowIngestSummary(shipped, await(sinking));
    }
  }

  /** Something that runs while {@link #follow} does, e.g. progress lines. */
  @FunctionalInterface
  public interface FollowWatch {
    /** Starts watching; the returned handle is closed when the follower ends. */
    Running start(Follower follower, LiveSink sink);

    /** A started watch. */
    @FunctionalInterface
    interface Running {
      void close();
    }

    /** Watches nothing. */
    FollowWatch NONE = (follower, sink) -> () -> {};
  }

  private interface AutoCloseableWatch extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * A follower of live files ({@code ship --follow}): call {@link Follower#run()} on one thread and
   * {@link Follower#stop()} from another (a shutdown hook).
   */
  public Follower follower(FollowSettings followSettings) {
    return follower(followSettings, ClientFollowSettings.DEFAULTS);
  }

  /**
   * A follower of live files whose client and gateway files (detected by content) become rows of
   * {@code clients}' run (docs/follow.md#client-files).
   */
  public Follower follower(FollowSettings followSettings, ClientFollowSettings clients) {
    return new Follower(followSettings, kafka, parsers, clients);
  }

  /**
   * A sink for the caller to run ({@code sink --follow}): {@link KafkaToDuckDb#runUntilStopped()}
   * on one thread, {@link KafkaToDuckDb#stop()} from another, then close it on the first.
   */
  public KafkaToDuckDb openSink(SinkSettings sinkSettings) {
    return KafkaToDuckDb.open(sinkSettings, kafka, clock, settings.adminTimeout());
  }

  /**
   * A lake sink for the caller to run ({@code sink --lake}, {@code ingest --follow --lake}): one
   * member of the consumer group {@link LakeSinkSettings#group()}.
   */
  public KafkaToLake openLakeSink(LakeSinkSettings lakeSettings) {
    return KafkaToLake.open(lakeSettings, kafka, clock, settings.adminTimeout());
  }

  /** Stops the embedded broker, if one was started. */
  @Override
  public void close() {
    if (broker != null) {
      broker.close();
    }
  }

  private ParseCounts shipFile(
      SourceFile file,
      Resume resume,
      EventProducer producer,
      List<String> failed,
      List<String> resumed) {
    LineParser parser = parsers.apply(file.engine(), file.parse());
    ResumingOutput output = new ResumingOutput(producer, resume);
    SourceParser source = new SourceParser(file.path().toString(), file.engine(), parser, output);
    try {
      ParseCounts counts = source.readFile(file.path(), settings.maxLineBytes());
      if (!resume.none()) {
        String note = output.describe(file);
        log.info("ship: {}", note);
        if (output.overrun()) {
          failed.add(note);
        } else {
          resumed.add(note);
        }
      }
      if (source.brokenAt() > 0) {
        String problem = brokenGzip(file, source.brokenAt());
        log.warn("ship: {}", problem);
        failed.add(problem);
      }
      return counts;
    } catch (IOException e) {
      // The other files keep flowing; the caller sees this file in failedFiles.
      String problem = file.path() + ": cannot read: " + FileProblems.describe(e);
      log.warn("ship: {}", problem);
      failed.add(problem);
      source.finish();
      return source.counts();
    }
  }

  /**
   * Passes a file's records on, except the first ones a {@link Resume} counts as stored; notes the
   * line of the first record it passes.
   */
  private static final class ResumingOutput implements TailOutput {
    private final TailOutput target;
    private final Resume resume;
    private long eventsToSkip;
    private long rejectsToSkip;
    private long firstLine;

    ResumingOutput(TailOutput target, Resume resume) {
      this.target = target;
      this.resume = resume;
      this.eventsToSkip = resume.events();
      this.rejectsToSkip = resume.rejects();
    }

    @Override
    public void event(EngineEvent event) {
      if (eventsToSkip > 0) {
        eventsToSkip--;
        return;
      }
      shipping(event.source().line());
      target.event(event);
    }

    @Override
    public void rejected(Rejection rejection, byte[] rawLine) {
      if (rejectsToSkip > 0) {
        rejectsToSkip--;
        return;
      }
      shipping(rejection.position().line());
      target.rejected(rejection, rawLine);
    }

    @Override
    public void ignored(SourcePosition position, String rule) {
      target.ignored(position, rule);
    }

    private void shipping(long line) {
      if (firstLine == 0) {
        firstLine = line;
      }
    }

    /** More records are stored than the file yields now: the stored rows are not its prefix. */
    boolean overrun() {
      return eventsToSkip > 0 || rejectsToSkip > 0;
    }

    String describe(SourceFile file) {
      String stored =
          resume.events()
              + " events and "
              + resume.rejects()
              + " rejects the interrupted run stored were not shipped again";
      if (overrun()) {
        return file.path()
            + ": cannot resume: the file yields fewer records than are stored of it ("
            + stored
            + "); load it again with --replace";
      }
      if (firstLine == 0) {
        return file.path() + ": resumed at its end: " + stored + ", nothing was left to ship";
      }
      return file.path() + ": resumed from line " + firstLine + ": " + stored;
    }
  }

  private void checkBroker() {
    if (broker != null && broker.fatalFault().isPresent()) {
      throw new IllegalStateException("embedded kafka broker failed: " + broker.fatalFault().get());
    }
  }

  private static SinkSummary await(FutureTask<SinkSummary> sinking) {
    try {
      return sinking.get();
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) {
        throw (RuntimeException) cause;
      }
      throw new IllegalStateException("duckdb sink failed: " + cause, cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the duckdb sink", e);
    }
  }

  private static void awaitQuietly(FutureTask<SinkSummary> sinking) {
    try {
      await(sinking);
    } catch (RuntimeException e) {
      // The shipping failure that brought us here is the one to report; this one is secondary.
      log.warn("duckdb sink stopped with: {}", e.toString());
    }
  }
}
