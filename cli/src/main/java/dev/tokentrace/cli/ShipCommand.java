package dev.tokentrace.cli;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.ShipSummary;
import dev.tokentrace.ingest.SourceFile;
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

/** {@code tokentrace ship}: parse server files and produce their events to Kafka. */
@Command(
    name = "ship",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Parse server logs and exports and send the events to Kafka (<prefix>.events, keyed by"
          + " request key or instance) and rejected lines to <prefix>.rejects. Run one per"
          + " inference host; 'tokentrace sink' writes the topics into DuckDB.",
      "Returns when Kafka has acknowledged every record."
    })
final class ShipCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ParseOptions parse = new ParseOptions();

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = "server log or export files (plain or gzip)",
      showDefaultValue = Help.Visibility.NEVER)
  List<Path> paths = List.of();

  @Override
  public Integer call() {
    IngestSettings settings =
        new IngestSettings(
            kafka.requireExternal("ship"),
            parse.maxLineBytes,
            IngestSettings.DEFAULT_ADMIN_TIMEOUT);
    List<SourceFile> files = SourceFiles.resolve(paths, parse);
    PrintWriter err = spec.commandLine().getErr();
    try (Ingest ingest = Ingest.open(settings)) {
      ShipSummary summary = ingest.ship(files);
      summary.failedFiles().forEach(problem -> err.println("cannot read " + problem));
      err.println(
          "ship: " + summary.describe() + " -> " + summary.records() + " records acknowledged");
      return Tolerance.report(summary.counts(), parse.maxRejectRatio, 0, err);
    }
  }
}
