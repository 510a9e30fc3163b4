package dev.tokentrace.cli;

import dev.tokentrace.app.Ingestion;
import dev.tokentrace.ingest.FollowIngestSummary;
import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.follow.ClientFollowSettings;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.follow.Follower;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.LiveSink;
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
    Ingest ingest =
        kafkaSettings.embedded()
            ? Ingest.open(settings(kafkaSettings), brokerDataDir())
            : Ingest.open(settings(kafkaSettings));
    printBroker(ingest, err);
    Follower follower = ingest.follower(settings, clients).connectTimeout(kafka.connectTimeout);
    try (ShutdownHook hook = ShutdownHook.install("ingest", err, follower::stop)) {
      int code;
      try (ingest) {
        code = followAndSink(ingest, follower, settings, err);
      } catch (RuntimeException e) {
        hook.failed(err, "ingest", e);
        throw e;
      }
      hook.finished(code);
      return code;
    }
  }

  private int followAndSink(
      Ingest ingest, Follower follower, FollowSettings settings, PrintWriter err) {
    LiveSink sink =
        lake.enabled()
            ? ingest.openLakeSink(lake.settings(database.settings()))
            : ingest.openSink(database.sinkSettings());
    String target = sink.target();
    FollowIngestSummary summary =
        ingest.follow(
            follower,
            sink,
            (running, live) -> {
              StatusLine ship =
                  StatusLine.start(
                      err,
                      follow.status,
                      new StatusLine.Ship(running::progress, parse.maxRejectRatio));
              StatusLine sunk =
                  StatusLine.start(err, follow.status, new StatusLine.Sink(live::progress));
              return () -> {
                ship.close();
                sunk.close();
              };
            });
    err.println("ingest: sink " + summary.sunk().describe() + " -> " + target);
    int code = ShipCommand.report(summary.shipped(), parse.maxRejectRatio, err);
    err.flush();
    return code;
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

  private static void printBroker(Ingest ingest, PrintWriter err) {
    Ingestion.printBroker(ingest, err);
  }
}
