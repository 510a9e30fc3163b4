package dev.tokentrace.cli;

import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.json.EventJson;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.tail.ParseCounts;
import dev.tokentrace.ingest.tail.SourceParser;
import dev.tokentrace.ingest.tail.TailOutput;
import dev.tokentrace.parse.Parsers;
import dev.tokentrace.parse.Rejection;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tokentrace parse}: server files to events, one JSON object per line on stdout. */
@Command(
    name = "parse",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Parse server logs and exports into events, one JSON object per line on standard output."
          + " Rejected lines are reported on standard error as 'path:line: engine: reason', and a"
          + " summary 'lines=N parsed=N ignored=N rejected=N (x%%), events=N' ends the run: each"
          + " line counted once, parsed when it gave an event.",
      "Nothing goes to Kafka or DuckDB: use it to check what tokentrace makes of a log."
    })
final class ParseCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ParseOptions parse = new ParseOptions();

  @Parameters(
      paramLabel = "FILE",
      arity = "1..*",
      description = "server log or export files (plain or gzip)",
      showDefaultValue = Help.Visibility.NEVER)
  List<Path> paths = List.of();

  @Option(
      names = "--max-reject-messages",
      paramLabel = "N",
      description = "rejected lines reported on standard error, per run (all are counted)",
      defaultValue = "50")
  int maxRejectMessages = 50;

  @Override
  public Integer call() {
    if (parse.learnGpuMap) {
      throw new UsageException(
          "--learn-gpu-map is for ingest and ship, whose files may name several instances;"
              + " parse stamps every file with --instance");
    }
    List<SourceFile> files = SourceFiles.resolve(paths, parse);
    PrintWriter err = spec.commandLine().getErr();
    Writer out =
        new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
    Printer printer = new Printer(out, err, maxRejectMessages);
    ParseCounts total = ParseCounts.ZERO;
    for (SourceFile file : files) {
      SourceParser parser =
          new SourceParser(
              file.path().toString(),
              file.engine(),
              Parsers.create(file.engine(), file.parse()),
              printer);
      try {
        total = total.plus(parser.readFile(file.path(), parse.maxLineBytes));
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file.path(), e);
      }
    }
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to standard output", e);
    }
    return Tolerance.report(total, parse.maxRejectRatio, printer.unreported(), err);
  }

  /** Writes events to stdout and the first rejections to stderr. */
  private static final class Printer implements TailOutput {
    private final Writer out;
    private final PrintWriter err;
    private final int maxMessages;
    private long rejections;

    Printer(Writer out, PrintWriter err, int maxMessages) {
      this.out = out;
      this.err = err;
      this.maxMessages = maxMessages;
    }

    @Override
    public void event(EngineEvent event) {
      try {
        out.write(EventJson.write(event));
        out.write('\n');
      } catch (IOException e) {
        throw new UncheckedIOException("cannot write to standard output", e);
      }
    }

    @Override
    public void rejected(Rejection rejection, byte[] rawLine) {
      if (rejections++ < maxMessages) {
        err.println(rejection.message());
      }
    }

    long unreported() {
      return Math.max(0, rejections - maxMessages);
    }
  }
}
