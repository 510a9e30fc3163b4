package dev.tokentrace.cli;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.sink.SinkSummary;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code tokentrace sink}: consume the topics into the DuckDB file, exactly once. */
@Command(
    name = "sink",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Consume <prefix>.events and <prefix>.rejects into the DuckDB file until caught up. Kafka"
          + " offsets are stored in the file in the same transaction as the rows, so a restart"
          + " neither loses nor duplicates a row."
    })
final class SinkCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Override
  public Integer call() {
    IngestSettings settings = IngestSettings.of(kafka.requireExternal("sink"));
    try (Ingest ingest = Ingest.open(settings)) {
      SinkSummary summary = ingest.sink(database.sinkSettings());
      spec.commandLine().getErr().println("sink: " + summary.describe() + " -> " + database.db);
      return ExitCodes.OK;
    }
  }
}
