package dev.tokentrace.cli;

import dev.tokentrace.app.Ingestion;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.follow.ClientFollowSettings;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tokentrace ingest}: ship and sink in one process. */
@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Parse server logs and exports and write the events into the DuckDB file, exactly once."
          + " With --bootstrap-servers they go through Kafka; without, a batch run writes them"
          + " in-process (no broker is started), each file in one DuckDB transaction with its"
          + " ledger row, and --follow runs an embedded single-node broker on loopback.",
      "With --follow: ship and sink in one process until SIGTERM or Ctrl-C, as 'ship --follow'"
          + " and 'sink --follow' do in two; the embedded broker then keeps its data (and the"
          + " shipper's checkpoints) in --kafka-data-dir, so a restart resumes exactly.",
      "Rejected lines go to the rejects table and topic with path, line and reason.",
      "Batch runs are idempotent: a file already loaded (same instance and content) is skipped,"
          + " a file a killed run was loading resumes after the records it stored (loaded again"
          + " whole if its content changed since), --replace reloads.",
      ""
    })
final class IngestCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ParseOptions parse = new ParseOptions();

  @Mixin FollowOptions follow = new FollowOptions();

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Mixin LakeOptions lake = new LakeOptions();

  @Option(
      names = "--kafka-data-dir",
      paramLabel = "DIR",
      description =
          "with --follow and the embedded broker: where it keeps its data across runs"
              + " (default: the --db file's or --lake directory's name with .kafka appended)")
  @Nullable Path kafkaDataDir;

  @Option(
      names = "--replace",
      description =
          "load files again that are loaded already (their stored rows are removed first)."
              + " Without it a file whose content is loaded for its instance is skipped, and a"
              + " file a killed run was loading resumes after what that run stored")
  boolean replace;

  @Option(
      names = "--via-broker",
      hidden = true,
      description =
          "batch run without --bootstrap-servers: send the files through an embedded broker"
              + " instead of loading them in-process (tests comparing both paths)")
  boolean viaBroker;

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = ShipCommand.FILES_DOC,
      showDefaultValue = Help.Visibility.NEVER)
  List<String> files = List.of();

  @Override
  public Integer call() {
    if (lake.enabled() && !follow.enabled()) {
      throw new UsageException(
          "--lake is for --follow (the live store); batch ingest writes the --db file");
    }
    parse.refuseLearnedGpuMap(follow.enabled());
    return follow.enabled() ? follow() : once();
  }

  private int once() {
    List<String> fileProblems = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<SourceFile> sources =
        BatchFiles.resolve(files, parse, follow.instanceFrom, fileProblems, notes);
    PrintWriter err = spec.commandLine().getErr();
    fileProblems.forEach(problem -> err.println("ingest: " + problem));
    notes.forEach(note -> err.println("ingest: " + note));
    return Ingestion.load(
        new Ingestion.BatchRequest(
            sources, settings(kafka.settings()), database.sinkSettings(), replace, viaBroker),
        fileProblems,
        parse.maxRejectRatio,
        err);
  }

  private int follow() {
    KafkaSettings kafkaSettings = kafka.settings();
    FollowSettings settings = follow.settings(files, parse);
    ClientFollowSettings clients = follow.clients();
    PrintWriter err = spec.commandLine().getErr();
    Ingestion.Following following =
        Ingestion.following(
            new Ingestion.FollowRequest(
                settings(kafkaSettings),
                brokerDataDir(),
                settings,
                clients,
                kafka.connectTimeout,
                database.sinkSettings(),
                lake.enabled() ? lake.settings(database.settings()) : null,
                parse.maxRejectRatio),
            err);
    try (ShutdownHook hook = ShutdownHook.install("ingest", err, following::stop)) {
      int code;
      try {
        code = following.run(err, StatusLine.watch(err, follow.status, parse.maxRejectRatio));
      } catch (RuntimeException e) {
        hook.failed(err, "ingest", e);
        throw e;
      }
      hook.finished(code);
      return code;
    }
  }

  private Path brokerDataDir() {
    if (kafkaDataDir != null) {
      return kafkaDataDir;
    }
    Path db = (lake.lake != null ? lake.lake : database.db).toAbsolutePath();
    return db.resolveSibling(db.getFileName() + ".kafka");
  }

  private IngestSettings settings(KafkaSettings kafkaSettings) {
    return new IngestSettings(kafkaSettings, parse.maxLineBytes, kafka.connectTimeout);
  }
}
