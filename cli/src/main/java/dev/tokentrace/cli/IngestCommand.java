package dev.tokentrace.cli;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.IngestSummary;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tokentrace ingest}: ship and sink in one process. */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Parse server logs and exports, send the events through Kafka and write them into the"
          + " DuckDB file, exactly once. Without --bootstrap-servers an embedded single-node"
          + " broker runs on loopback for the duration of the command.",
      "Rejected lines go to the rejects table and topic with path, line and reason."
    })
final class IngestCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ParseOptions parse = new ParseOptions();

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = "server log or export files (plain or gzip)",
      showDefaultValue = Help.Visibility.NEVER)
  List<Path> paths = List.of();

  @Override
  public Integer call() {
    List<SourceFile> files = SourceFiles.resolve(paths, parse);
    KafkaSettings kafkaSettings = kafka.settings();
    PrintWriter err = spec.commandLine().getErr();
    try (Ingest ingest =
        Ingest.open(
            new IngestSettings(
                kafkaSettings, parse.maxLineBytes, IngestSettings.DEFAULT_ADMIN_TIMEOUT))) {
      if (ingest.broker() != null) {
        err.println(
            "embedded kafka broker on "
                + ingest.bootstrapServers()
                + " (started in "
                + ingest.broker().startupTime().toMillis()
                + " ms)");
      }
      IngestSummary summary = ingest.run(files, database.sinkSettings());
      summary.ship().failedFiles().forEach(problem -> err.println("cannot read " + problem));
      err.println("ingest: " + summary.describe() + " -> " + database.db);
      return Tolerance.report(summary.ship().counts(), parse.maxRejectRatio, 0, err);
    }
  }
}
