package dev.tokentrace.cli;

import dev.tokentrace.ingest.Ingest;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.IngestSummary;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.follow.FollowSummary;
import dev.tokentrace.ingest.follow.Follower;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.KafkaToDuckDb;
import dev.tokentrace.ingest.sink.SinkSummary;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
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
      "Parse server logs and exports, send the events through Kafka and write them into the"
          + " DuckDB file, exactly once. Without --bootstrap-servers an embedded single-node"
          + " broker runs on loopback for the duration of the command.",
      "With --follow: ship and sink in one process until SIGTERM or Ctrl-C, as 'ship --follow'"
          + " and 'sink --follow' do in two; the embedded broker then keeps its data (and the"
          + " shipper's checkpoints) in --kafka-data-dir, so a restart resumes exactly.",
      "Rejected lines go to the rejects table and topic with path, line and reason.",
      ""
    })
final class IngestCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ParseOptions parse = new ParseOptions();

  @Mixin FollowOptions follow = new FollowOptions();

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Option(
      names = "--kafka-data-dir",
      paramLabel = "DIR",
      description =
          "with --follow and the embedded broker: where it keeps its data across runs"
              + " (default: the --db file's name with .kafka appended)")
  @Nullable Path kafkaDataDir;

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = ShipCommand.FILES_DOC,
      showDefaultValue = Help.Visibility.NEVER)
  List<String> files = List.of();

  @Override
  public Integer call() {
    return follow.enabled() ? follow() : once();
  }

  private int once() {
    List<SourceFile> sources = BatchFiles.resolve(files, parse, follow.instanceFrom);
    PrintWriter err = spec.commandLine().getErr();
    try (Ingest ingest = Ingest.open(settings(kafka.settings()))) {
      printBroker(ingest, err);
      IngestSummary summary = ingest.run(sources, database.sinkSettings());
      summary.ship().failedFiles().forEach(problem -> err.println("cannot read " + problem));
      err.println("ingest: " + summary.describe() + " -> " + database.db);
      return Tolerance.report(summary.ship().counts(), parse.maxRejectRatio, 0, err);
    }
  }

  private int follow() {
    KafkaSettings kafkaSettings = kafka.settings();
    FollowSettings settings = follow.settings(files, parse);
    PrintWriter err = spec.commandLine().getErr();
    Ingest ingest =
        kafkaSettings.embedded()
            ? Ingest.open(settings(kafkaSettings), brokerDataDir())
            : Ingest.open(settings(kafkaSettings));
    printBroker(ingest, err);
    Follower follower = ingest.follower(settings);
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
    KafkaToDuckDb sink = ingest.openSink(database.sinkSettings());
    try (sink) {
      FutureTask<SinkSummary> sinking = new FutureTask<>(sink::runUntilStopped);
      new Thread(sinking, "tokentrace-sink").start();
      FollowSummary shipped;
      try (StatusLine ship =
              StatusLine.start(
                  err,
                  follow.status,
                  new StatusLine.Ship(follower::progress, parse.maxRejectRatio));
          StatusLine sunk =
              StatusLine.start(err, follow.status, new StatusLine.Sink(sink::progress))) {
        shipped = follower.run();
      } finally {
        // What was committed is all there is to write: the sink drains it, then stops.
        sink.stopWhenCaughtUp();
      }
      SinkSummary written = await(sinking);
      err.println("ingest: sink " + written.describe() + " -> " + database.db);
      int code = ShipCommand.report(shipped, parse.maxRejectRatio, err);
      err.flush();
      return code;
    }
  }

  private Path brokerDataDir() {
    if (kafkaDataDir != null) {
      return kafkaDataDir;
    }
    Path db = database.db.toAbsolutePath();
    return db.resolveSibling(db.getFileName() + ".kafka");
  }

  private IngestSettings settings(KafkaSettings kafkaSettings) {
    return new IngestSettings(
        kafkaSettings, parse.maxLineBytes, IngestSettings.DEFAULT_ADMIN_TIMEOUT);
  }

  private static void printBroker(Ingest ingest, PrintWriter err) {
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
}
