package dev.tokentrace.cli;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.kafka.KafkaUnavailableException;
import dev.tokentrace.ingest.kafka.KafkaWait;
import dev.tokentrace.ingest.sink.KafkaToLake;
import dev.tokentrace.ingest.sink.LiveSink;
import dev.tokentrace.ingest.sink.SinkSummary;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tokentrace sink}: consume the topics into the DuckDB file, exactly once. */
@Command(
    name = "sink",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Consume <prefix>.events and <prefix>.rejects into the DuckDB file until caught up, or"
          + " with --follow until SIGTERM or Ctrl-C (a long-running consumer next to the DuckDB"
          + " file; the shippers may run on other hosts). Kafka offsets are stored in the file in"
          + " the same transaction as the rows, so a restart neither loses nor duplicates a row;"
          + " only what shippers committed is read (read_committed).",
      "DuckDB lets one process write a file: stop the sink to open the file elsewhere for"
          + " writing; readers in other processes see it once the sink has stopped.",
      "With --lake DIR: write the Parquet lake instead, as one member of the consumer group"
          + " --group (several sinks of one group share the partitions and one lake). Every"
          + " --flush-interval each partition's rows are written as Parquet files and committed;"
          + " the lake is the only record of progress, so a sink killed at any instant resumes"
          + " exactly once. 'sql --lake DIR' queries it while sinks run"
          + " (docs/storage.md#the-parquet-lake).",
      ""
    })
final class SinkCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Mixin LakeOptions lake = new LakeOptions();

  @Option(
      names = "--follow",
      description =
          "keep consuming as shippers produce, until SIGTERM or Ctrl-C; the batch being written"
              + " is committed before the sink stops")
  boolean follow;

  @Option(
      names = "--status-interval",
      paramLabel = "DURATION",
      description =
          "with --follow, how often a one-line progress (rows/s, lag) is printed on stderr when"
              + " it changed; unchanged, it is printed once a minute; 0s for none",
      converter = DurationConverter.class,
      defaultValue = "10s")
  Duration status = Duration.ofSeconds(10);

  @Override
  public Integer call() {
    IngestSettings defaults = IngestSettings.of(kafka.requireExternal("sink"));
    IngestSettings settings =
        new IngestSettings(defaults.kafka(), defaults.maxLineBytes(), kafka.connectTimeout);
    PrintWriter err = spec.commandLine().getErr();
    if (follow) {
      return follow(settings, err);
    }
    // Batch: a run that cannot reach Kafka within --connect-timeout fails (exit 1) for its
    // caller to retry (docs/live.md#start-order).
    try (Ingest ingest = Ingest.open(settings)) {
      if (lake.enabled()) {
        SinkSummary summary;
        try (KafkaToLake sink = ingest.openLakeSink(lake.settings(database.settings()))) {
          summary = sink.runUntilCaughtUp();
        }
        err.println("sink: " + summary.describe() + " -> " + lake.lake);
        return ExitCodes.OK;
      }
      SinkSummary summary = ingest.sink(database.sinkSettings());
      err.println("sink: " + summary.describe() + " -> " + database.db);
      return ExitCodes.OK;
    }
  }

  /**
   * A long-running sink starts in any order (docs/live.md#start-order): while Kafka does not answer
   * it waits, says so once and retries with a backoff; SIGTERM ends the wait.
   */
  private int follow(IngestSettings settings, PrintWriter err) {
    KafkaWait wait = new KafkaWait(settings.kafka(), settings.adminTimeout());
    AtomicReference<LiveSink> running = new AtomicReference<>();
    Runnable stop =
        () -> {
          wait.stop();
          LiveSink sink = running.get();
          if (sink != null) {
            sink.stop();
          }
        };
    try (ShutdownHook hook = ShutdownHook.install("sink", err, stop)) {
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
          hook.finished(ExitCodes.OK);
          return ExitCodes.OK;
        }
        Ingest ingest;
        LiveSink sink;
        try {
          ingest = Ingest.open(settings);
        } catch (KafkaUnavailableException e) {
          err.println("sink: " + e.getMessage() + "; waiting again");
          continue;
        }
        try {
          sink =
              lake.enabled()
                  ? ingest.openLakeSink(lake.settings(database.settings()))
                  : ingest.openSink(database.sinkSettings());
        } catch (KafkaUnavailableException e) {
          ingest.close();
          err.println("sink: " + e.getMessage() + "; waiting again");
          continue;
        } catch (RuntimeException e) {
          ingest.close();
          hook.failed(err, "sink", e);
          throw e;
        }
        running.set(sink);
        if (wait.stopRequested()) {
          sink.stop();
        }
        try (ingest) {
          return follow(ingest, sink, err, hook);
        }
      }
    }
  }

  private int follow(Ingest ingest, LiveSink sink, PrintWriter err, ShutdownHook hook) {
    err.println(
        "sink: following "
            + ingest.bootstrapServers()
            + " into "
            + sink.target()
            + (lake.enabled() ? " (group " + lake.group + ")" : "")
            + "; SIGTERM or Ctrl-C stops");
    err.flush();
    SinkSummary summary;
    try (sink;
        StatusLine line = StatusLine.start(err, status, new StatusLine.Sink(sink::progress))) {
      summary = sink.runUntilStopped();
    } catch (RuntimeException e) {
      hook.failed(err, "sink", e);
      throw e;
    }
    err.println("sink: stopped with its last batch committed");
    err.println("sink: " + summary.describe() + " -> " + sink.target());
    err.flush();
    hook.finished(ExitCodes.OK);
    return ExitCodes.OK;
  }
}
