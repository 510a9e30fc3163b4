package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.MatchSettings;
import dev.tokentrace.ingest.IngestSettings;
import dev.tokentrace.ingest.SourceFile;
import dev.tokentrace.ingest.kafka.KafkaSettings;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The {@code analyze} use case: from server logs and a benchmark client's files to a report in one
 * run, in-process. It runs the use cases of {@code ingest} ({@link Ingestion}, in-process: no
 * broker), {@code clients} ({@link ClientLoads}), {@code correlate} ({@link Correlation}) and
 * {@code report} ({@link Reports}, Markdown and HTML) one after the other with typed requests, into
 * one folder. Before each step it says the command line that does the same step alone (recorded in
 * {@code runs} as that step's command), so every step prints what that command prints; it stops at
 * the first step that fails (docs/design.md#application-layer).
 *
 * <p>Longer than the house's 200 lines: the request's documented fields and the five steps' command
 * lines belong together, so a step's printed line and its typed request cannot drift apart.
 */
public final class Analysis {
  /** The analysis file's name in the folder. */
  public static final String DATABASE = "analysis.duckdb";

  /**
   * Resolves the ingest step's server-file arguments as {@code ingest} does (quoted globs, {@code
   * NAME=FILE}, each file's engine and year): the command line owns that mapping, with its parse
   * options.
   */
  @FunctionalInterface
  public interface ServerFiles {
    /**
     * @param fileProblems receives each file left out, as {@code path:line: reason}
     * @param notes receives what the resolution learned (a GPU map)
     * @throws BadRequestException when no file can be used
     */
    List<SourceFile> resolve(List<String> fileProblems, List<String> notes);
  }

  /** What a step that threw prints, and its exit status: as the step's command would. */
  @FunctionalInterface
  public interface StepFailure {
    /**
     * @param step the step's command name, e.g. {@code clients}
     */
    int failed(String step, RuntimeException failure, PrintWriter err);
  }

  /**
   * One analysis.
   *
   * @param logs the server-file arguments, as given (for the ingest step's command line)
   * @param serverFiles resolves them when the ingest step runs
   * @param clients the client-file arguments (files, quoted globs, a tool's output folder)
   * @param out the folder for the analysis file, the attribution CSV and the reports
   * @param instance the logs' instance name, or null for ingest's default
   * @param engine the logs' engine, or null for detection
   * @param zone the logs' time zone, or null for ingest's default
   * @param year the logs' year, or null for ingest's default
   * @param clientFormat the client files' format, or null for detection
   * @param concurrency the client run's level when its files record none, or null
   * @param match how requests are paired (id, heuristic), or null for id
   * @param fresh start a new analysis file instead of adding to the folder's
   */
  public record Request(
      List<String> logs,
      ServerFiles serverFiles,
      List<String> clients,
      Path out,
      @Nullable String instance,
      @Nullable String engine,
      @Nullable String zone,
      @Nullable Integer year,
      @Nullable String clientFormat,
      @Nullable Integer concurrency,
      @Nullable String match,
      boolean fresh) {
    public Request {
      logs = List.copyOf(logs);
      requireNonNull(serverFiles, "serverFiles is null");
      clients = List.copyOf(clients);
      requireNonNull(out, "out is null");
    }

    /** The analysis file. */
    public Path database() {
      return out.resolve(DATABASE);
    }
  }

  /**
   * How the analysis ended.
   *
   * @param exitStatus {@link ExitStatus} of the first failing step, else REJECTS when a step kept
   *     going with rejects over its threshold, else OK
   * @param complete whether every step ran (the report is written)
   */
  public record Outcome(int exitStatus, boolean complete) {}

  /** One step: its command line, and the use case that does it. */
  private interface Step {
    int run(String command, PrintWriter err);
  }

  private record NamedStep(List<String> args, Step step) {
    String name() {
      return args.get(0);
    }
  }

  private Analysis() {}

  /**
   * Runs the steps; each step's lines go to {@code err} (the reports to their files), a step's
   * failure through {@code failure}.
   *
   * @throws UncheckedIOException when the folder cannot be made or the old file removed
   */
  public static Outcome run(Request request, StepFailure failure, PrintWriter err) {
    Path db = request.database();
    try {
      Files.createDirectories(request.out());
      if (request.fresh()) {
        Files.deleteIfExists(db);
        Files.deleteIfExists(request.out().resolve(DATABASE + ".wal"));
        err.println("analyze: --fresh: started a new " + db);
      } else if (Files.exists(db)) {
        err.println(
            "analyze: "
                + db
                + " exists and is reused: files it already holds are skipped (--fresh starts"
                + " anew)");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + db, e);
    }
    int worst = ExitStatus.OK;
    for (NamedStep step : steps(request)) {
      int code = run(step, failure, err);
      if (code == ExitStatus.REJECTS) {
        err.println("analyze: '" + step.name() + "' kept going with rejects over its threshold");
        worst = ExitStatus.REJECTS;
      } else if (code != ExitStatus.OK) {
        err.println(
            "analyze: stopped: '" + step.name() + "' exited " + code + "; later steps not run");
        err.flush();
        return new Outcome(code, false);
      }
    }
    return new Outcome(worst, true);
  }

  /** Says the step's command line, then runs it; a failure is printed as the command would. */
  private static int run(NamedStep step, StepFailure failure, PrintWriter err) {
    err.println("analyze: tokentrace " + String.join(" ", step.args()));
    err.flush();
    try {
      return step.step().run(commandLine(step.args()), err);
    } catch (RuntimeException e) {
      return failure.failed(step.name(), e, err);
    }
  }

  /** The five steps, each with the command line a user would type for it. */
  private static List<NamedStep> steps(Request request) {
    Path db = request.database();
    String database = db.toString();
    DatabaseSettings settings = DatabaseSettings.from(db, null, null);

    List<String> ingest = new ArrayList<>(List.of("ingest", "--db", database));
    option(ingest, "--instance", request.instance());
    option(ingest, "--engine", request.engine());
    option(ingest, "--zone", request.zone());
    option(ingest, "--year", request.year());
    ingest.addAll(request.logs());

    List<String> clients = new ArrayList<>(List.of("clients", "--db", database));
    option(clients, "--format", request.clientFormat());
    option(clients, "--concurrency", request.concurrency());
    clients.addAll(request.clients());

    Path csv = request.out().resolve("attribution.csv");
    List<String> correlate = new ArrayList<>(List.of("correlate", "--db", database));
    option(correlate, "--match", request.match());
    correlate.addAll(List.of("--out", csv.toString()));

    List<NamedStep> steps = new ArrayList<>();
    steps.add(new NamedStep(ingest, (command, err) -> ingest(request, settings, err)));
    steps.add(
        new NamedStep(
            clients,
            (command, err) ->
                ClientLoads.load(
                    settings,
                    new ClientLoads.Request(
                        request.clients(),
                        request.clientFormat(),
                        null,
                        request.concurrency(),
                        command,
                        null,
                        ClientReadSettings.DEFAULTS,
                        false),
                    err)));
    steps.add(
        new NamedStep(
            correlate,
            (command, err) ->
                Correlation.correlate(
                    Workspace.of(settings),
                    new Correlation.BatchRequest(rules(request), command, csv, true),
                    err)));
    for (String format : List.of("md", "html")) {
      Path file = request.out().resolve("report." + format);
      List<String> report = new ArrayList<>(List.of("report", "--db", database));
      option(report, "--match", request.match());
      report.addAll(List.of("--format", format, "--out", file.toString()));
      steps.add(
          new NamedStep(
              report,
              (command, err) ->
                  Reports.report(
                      Workspace.of(settings),
                      new Reports.Request(
                          rules(request), request.match() != null, format, null, file, command),
                      err,
                      err)));
    }
    return steps;
  }

  /** The ingest step, as a batch {@code ingest} without brokers runs it: in-process. */
  private static int ingest(Request request, DatabaseSettings settings, PrintWriter err) {
    List<String> fileProblems = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<SourceFile> sources = request.serverFiles().resolve(fileProblems, notes);
    fileProblems.forEach(problem -> err.println("ingest: " + problem));
    notes.forEach(note -> err.println("ingest: " + note));
    Path file = requireNonNull(settings.file(), "file");
    SinkSettings sink =
        new SinkSettings(
            file,
            settings.memoryLimit(),
            settings.threads(),
            SinkSettings.DEFAULT_POLL_TIMEOUT,
            SinkSettings.DEFAULT_STALL_TIMEOUT);
    IngestSettings ingest = IngestSettings.of(KafkaSettings.from(null, null, null, null));
    return Ingestion.load(
        new Ingestion.BatchRequest(sources, ingest, sink, false),
        fileProblems,
        Ingestion.DEFAULT_MAX_REJECT_RATIO,
        err);
  }

  private static AttributionSettings rules(Request request) {
    return AttributionSettings.defaults()
        .withMatch(MatchSettings.from(request.match(), null, null, null));
  }

  private static void option(List<String> args, String name, @Nullable Object value) {
    if (value != null) {
      args.add(name);
      args.add(value.toString());
    }
  }

  /**
   * The command line as recorded in {@code runs}: {@code tokentrace} and each argument, quoted for
   * a POSIX shell when it holds a blank or a quote.
   */
  public static String commandLine(List<String> args) {
    StringBuilder text = new StringBuilder("tokentrace");
    for (String arg : args) {
      text.append(' ').append(quoted(arg));
    }
    return text.toString();
  }

  /** One argument, quoted for a POSIX shell when it holds a blank or a quote. */
  public static String quoted(String arg) {
    if (!arg.isEmpty() && arg.chars().noneMatch(c -> c <= ' ' || c == '\'' || c == '"')) {
      return arg;
    }
    return "'" + arg.replace("'", "'\\''") + "'";
  }
}
