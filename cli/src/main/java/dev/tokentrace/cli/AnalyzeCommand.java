package dev.tokentrace.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace analyze}: from server logs and a benchmark client's file or output folder to a
 * report in one command. It runs {@code ingest}, {@code clients}, {@code correlate} and {@code
 * report} (Markdown and HTML) one after the other, each exactly as if typed with the options shown,
 * so every step prints what it always prints; it says each command line before running it and stops
 * at the first step that fails. At the end it prints the report's attribution table and bottleneck
 * paragraph as {@code demo} does ({@link DemoSummary}).
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
  static final String DATABASE = "analysis.duckdb";

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
    Files.createDirectories(out);
    Path db = out.resolve(DATABASE);
    if (fresh) {
      Files.deleteIfExists(db);
      Files.deleteIfExists(out.resolve(DATABASE + ".wal"));
      err.println("analyze: --fresh: started a new " + db);
    } else if (Files.exists(db)) {
      err.println(
          "analyze: "
              + db
              + " exists and is reused: files it already holds are skipped (--fresh starts anew)");
    }
    int worst = ExitCodes.OK;
    for (List<String> step : steps(db)) {
      int code = run(step, err);
      if (code == ExitCodes.REJECTS) {
        err.println("analyze: '" + step.get(0) + "' kept going with rejects over its threshold");
        worst = ExitCodes.REJECTS;
      } else if (code != ExitCodes.OK) {
        err.println(
            "analyze: stopped: '" + step.get(0) + "' exited " + code + "; later steps not run");
        err.flush();
        return code;
      }
    }
    // the attribution table and the bottleneck paragraph, as demo prints them (DemoSummary)
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
    return worst;
  }

  /** The four commands, as a user would type them. */
  List<List<String>> steps(Path db) {
    String database = db.toString();
    List<String> ingest = new ArrayList<>(List.of("ingest", "--db", database));
    option(ingest, "--instance", instance);
    option(ingest, "--engine", engine);
    option(ingest, "--zone", zone);
    option(ingest, "--year", year);
    ingest.addAll(logs);

    List<String> loadClients = new ArrayList<>(List.of("clients", "--db", database));
    option(loadClients, "--format", clientFormat);
    option(loadClients, "--concurrency", concurrency);
    loadClients.addAll(clients);

    List<String> correlate = new ArrayList<>(List.of("correlate", "--db", database));
    option(correlate, "--match", match);
    correlate.addAll(List.of("--out", out.resolve("attribution.csv").toString()));

    List<List<String>> steps = new ArrayList<>(List.of(ingest, loadClients, correlate));
    for (String format : List.of("md", "html")) {
      List<String> report = new ArrayList<>(List.of("report", "--db", database));
      option(report, "--match", match);
      report.addAll(
          List.of("--format", format, "--out", out.resolve("report." + format).toString()));
      steps.add(report);
    }
    return steps;
  }

  private static void option(List<String> args, String name, @Nullable Object value) {
    if (value != null) {
      args.add(name);
      args.add(value.toString());
    }
  }

  /** Runs one step on a fresh command line with this command's streams and handlers. */
  private int run(List<String> step, PrintWriter err) {
    err.println("analyze: tokentrace " + String.join(" ", step));
    err.flush();
    CommandLine commandLine = TokentraceMain.commandLine();
    commandLine.setOut(spec.commandLine().getOut());
    commandLine.setErr(err);
    return commandLine.execute(step.toArray(String[]::new));
  }
}
