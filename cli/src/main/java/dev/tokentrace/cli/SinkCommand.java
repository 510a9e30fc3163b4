package dev.tokentrace.cli;

import dev.tokentrace.app.Sinking;
import dev.tokentrace.ingest.IngestSettings;
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
    Sinking.Request request =
        new Sinking.Request(
            settings,
            database.sinkSettings(),
            lake.enabled() ? lake.settings(database.settings()) : null);
    if (!follow) {
      // Batch: a run that cannot reach Kafka within --connect-timeout fails (exit 1) for its
      // caller to retry (docs/live.md#start-order).
      return Sinking.untilCaughtUp(request, err);
    }
    // A long-running sink starts in any order (docs/live.md#start-order): while Kafka does not
    // answer it waits, says so once and retries with a backoff; SIGTERM ends the wait.
    Sinking.Following following = Sinking.following(request);
    try (ShutdownHook hook = ShutdownHook.install("sink", err, following::stop)) {
      try {
        int code = following.run(err, StatusLine.watch(err, status, 0));
        hook.finished(code);
        return code;
      } catch (RuntimeException e) {
        hook.failed(err, "sink", e);
        throw e;
      }
    }
  }
}
