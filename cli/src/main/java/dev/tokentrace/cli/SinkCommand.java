package dev.tokentrace.cli;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.sink.KafkaToLake;
import dev.tokentrace.ingest.sink.LiveSink;
import dev.tokentrace.ingest.sink.SinkSummary;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
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
    try (Ingest ingest = Ingest.open(settings)) {
      if (follow) {
        return follow(ingest, err);
      }
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

  private int follow(Ingest ingest, PrintWriter err) {
    LiveSink sink =
        lake.enabled()
            ? ingest.openLakeSink(lake.settings(database.settings()))
            : ingest.openSink(database.sinkSettings());
    err.println(
        "sink: following "
            + ingest.bootstrapServers()
            + " into "
            + sink.target()
            + (lake.enabled() ? " (group " + lake.group + ")" : "")
            + "; SIGTERM or Ctrl-C stops");
    err.flush();
    try (ShutdownHook hook = ShutdownHook.install("sink", err, sink::stop)) {
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
}
