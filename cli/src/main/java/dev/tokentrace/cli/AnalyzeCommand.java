package dev.tokentrace.cli;

import dev.tokentrace.app.Analysis;
import dev.tokentrace.ingest.SourceFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace analyze}: from server logs and a benchmark client's file or output folder to a
 * report in one command. It runs {@code ingest}, {@code clients}, {@code correlate} and {@code
 * report} (Markdown and HTML) one after the other in-process, through the application layer's
 * {@link Analysis} with typed requests (no command line is parsed again): each step prints what its
 * command prints, after the command line that does it alone; it stops at the first step that fails.
 * At the end it prints the report's attribution table and bottleneck paragraph as {@code demo} does
 * ({@link DemoSummary}).
 */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "From server logs and a benchmark client's file or output folder to a report, in one"
          + " command: runs ingest (embedded Kafka broker), clients, correlate and report with"
          + " their defaults into --out DIR, printing each step's command line first.",
      "Writes DIR/analysis.duckdb, DIR/attribution.csv, DIR/report.md and DIR/report.html. An"
          + " existing DIR/analysis.duckdb is reused: files it already holds are skipped (each"
          + " step says so); --fresh starts a new one.",
      "Exit code: the first failing step's (1 infrastructure, 2 usage or bad input); 3 when a"
          + " step kept going with rejects over its threshold."
    })
final class AnalyzeCommand implements Callable<Integer> {
  static final String DATABASE = Analysis.DATABASE;

  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "LOG",
      arity = "1..*",
      description =
          "server log or export files (vLLM, SGLang, TensorRT-LLM; quoted globs as in ingest)",
      showDefaultValue = Help.Visibility.NEVER)
  List<String> logs = List.of();

  @Option(
      names = "--clients",
      paramLabel = "FILE|DIR",
      required = true,
      description =
          "the benchmark client's timing file, a quoted glob, or a tool's output folder (AIPerf,"
              + " GenAI-Perf, GuideLLM); repeat for several files of one run")
  List<String> clients = List.of();

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "tokentrace-analysis",
      description = "where the database, the attribution CSV and the reports are written")
  Path out = Path.of("tokentrace-analysis");

  @Option(
      names = "--instance",
      paramLabel = "NAME",
      description = "server instance name of the logs (ingest --instance; default: each file's)")
  @Nullable String instance;

  @Option(
      names = "--engine",
      paramLabel = "ENGINE",
      description = "engine of the logs (ingest --engine; default: detected from the content)")
  @Nullable String engine;

  @Option(
      names = "--zone",
      paramLabel = "ZONE",
      description = "time zone of the logs' local times (ingest --zone; default: ingest's)")
  @Nullable String zone;

  @Option(
      names = "--year",
      paramLabel = "YEAR",
      description = "year of logs whose lines carry none (ingest --year; default: ingest's)")
  @Nullable Integer year;

  @Option(
      names = "--client-format",
      paramLabel = "FORMAT",
      description = "format of the client files (clients --format; default: detected)")
  @Nullable String clientFormat;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      description =
          "concurrency of the client run when its file and aggregate file record none (clients"
              + " --concurrency)")
  @Nullable Integer concurrency;

  @Option(
      names = "--match",
      paramLabel = "MODE",
      description =
          "how requests are paired: id, or heuristic for servers that log no client IDs, such as"
              + " TensorRT-LLM perf metrics (correlate and report --match; default: id)")
  @Nullable String match;

  @Option(names = "--fresh", description = "delete DIR/analysis.duckdb first")
  boolean fresh;

  @Override
  public Integer call() throws IOException {
    PrintWriter err = spec.commandLine().getErr();
    Analysis.Outcome outcome =
        Analysis.run(
            new Analysis.Request(
                logs,
                this::serverFiles,
                clients,
                out,
                instance,
                engine,
                zone,
                year,
                clientFormat,
                concurrency,
                match,
                fresh),
            (step, failure, stepErr) ->
                TokentraceMain.failed(step, "tokentrace " + step, failure, stepErr),
            err);
    if (!outcome.complete()) {
      return outcome.exitStatus();
    }
    // the attribution table and the bottleneck paragraph, as demo prints them (DemoSummary)
    Path db = out.resolve(DATABASE);
    PrintWriter stdout = spec.commandLine().getOut();
    DemoSummary.of(Files.readString(out.resolve("report.md"))).forEach(stdout::println);
    stdout.flush();
    err.println();
    err.println("analyze: done");
    err.println("  report:      " + out.resolve("report.md"));
    err.println("  html report: " + out.resolve("report.html").toAbsolutePath().normalize());
    err.println("  attribution: " + out.resolve("attribution.csv"));
    err.println("  duckdb:      " + db + " (./tokentrace sql --db " + db + " --list)");
    err.flush();
    return outcome.exitStatus();
  }

  /** The ingest step's files, resolved as {@code ingest} resolves its FILE arguments. */
  private List<SourceFile> serverFiles(List<String> fileProblems, List<String> notes) {
    ParseOptions parse = new ParseOptions();
    if (instance != null) {
      parse.instance = instance;
    }
    if (engine != null) {
      parse.engine = engine;
    }
    if (zone != null) {
      parse.zone = zone;
    }
    parse.year = year;
    return BatchFiles.resolve(
        logs, parse, FollowOptions.INSTANCE_FROM_DEFAULT, fileProblems, notes);
  }
}
