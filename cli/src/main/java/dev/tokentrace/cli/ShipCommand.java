package dev.tokentrace.cli;

import dev.tokentrace.app.Shipping;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.follow.ClientFollowSettings;
import dev.tokentrace.ingest.follow.FollowSettings;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import java.io.PrintWriter;
import java.util.ArrayList;
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
      "Without --follow: read the files once and return when Kafka has acknowledged every"
          + " record.",
      "With --follow: tail the files (tail -F) until SIGTERM or Ctrl-C, through"
          + " rotation, and resume after a restart from the checkpoint committed with the"
          + " events (in <prefix>.checkpoints under --shipper-id), exactly once. While Kafka is"
          + " unreachable it waits, says so, and pauses reading. Every --status-interval a line"
          + " 'lines/s, events/s, lag' goes to stderr.",
      "With --engine auto, " + FollowSettings.DETECT_DOC + ".",
      "--max-reject-ratio in follow mode: the status line warns when an interval's rejects"
          + " exceed it; the exit code (3) is decided at the stop, over all lines of the run.",
      "Rotation: a renamed file is read to its end before its successor; with copytruncate,"
          + " lines written between the copy and the truncation, or not yet read when the file is"
          + " truncated, are only in the copy (inherent to copytruncate: prefer rename).",
      "A restart loses what the parser held, never a line: a record grouped across the resume"
          + " point (a traceback) is read again whole, a step time derived from the line before"
          + " the resume point is missing once, and a log's year is inferred again there.",
      "Examples:",
      "  ship --follow --bootstrap-servers k:9092 /var/log/vllm/server.log",
      "  ship --follow --bootstrap-servers k:9092 gpu0=/logs/a.log gpu1=/logs/b.log",
      "  ship --follow --bootstrap-servers k:9092 --instance-from dir '/logs/*/*.log'",
      ""
    })
final class ShipCommand implements Callable<Integer> {
  static final String FILES_DOC =
      "[NAME=]FILE|GLOB: a server log or export (plain or gzip; a rotated .gz is read when"
          + " listed). NAME= sets the instance of that file's events (else --instance-from and"
          + " --instance decide). Quote a glob ('/logs/*.log', ** spans directories) so that"
          + " tokentrace matches it, again and again with --follow, picking up new files";

  @Spec CommandSpec spec;

  @Mixin ParseOptions parse = new ParseOptions();

  @Mixin FollowOptions follow = new FollowOptions();

  @Mixin KafkaOptions kafka = new KafkaOptions();

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = FILES_DOC,
      showDefaultValue = Help.Visibility.NEVER)
  List<String> files = List.of();

  @Override
  public Integer call() {
    parse.refuseLearnedGpuMap(follow.enabled());
    return follow.enabled() ? follow() : once();
  }

  private int once() {
    IngestSettings settings =
        new IngestSettings(kafka.requireExternal("ship"), parse.maxLineBytes, kafka.connectTimeout);
    List<String> fileProblems = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<SourceFile> sources =
        BatchFiles.resolve(files, parse, follow.instanceFrom, fileProblems, notes);
    PrintWriter err = spec.commandLine().getErr();
    fileProblems.forEach(problem -> err.println("ship: " + problem));
    notes.forEach(note -> err.println("ship: " + note));
    return Shipping.ship(
        new Shipping.BatchRequest(settings, sources, fileProblems, parse.maxRejectRatio), err);
  }

  private int follow() {
    KafkaSettings kafkaSettings = kafka.requireExternal("ship --follow");
    FollowSettings settings = follow.settings(files, parse);
    ClientFollowSettings clients = follow.clients();
    PrintWriter err = spec.commandLine().getErr();
    Shipping.Following following =
        Shipping.following(
            new Shipping.FollowRequest(
                kafkaSettings, settings, clients, kafka.connectTimeout, parse.maxRejectRatio));
    try (ShutdownHook hook = ShutdownHook.install("ship", err, following::stop)) {
      try {
        int code = following.run(err, StatusLine.watch(err, follow.status, parse.maxRejectRatio));
        hook.finished(code);
        return code;
      } catch (RuntimeException e) {
        hook.failed(err, "ship", e);
        throw e;
      }
    }
  }
}
