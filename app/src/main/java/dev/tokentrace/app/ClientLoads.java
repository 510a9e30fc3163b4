package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.clients.ClientArtifacts;
import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.ingest.follow.Globs;
import dev.tokentrace.ingest.follow.SourceSpec;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The client-load use case over one open store: a benchmark client's timing files into {@code
 * client_timing} as one run, recorded in {@code runs} and {@code run_files} (a file loaded already
 * is skipped and says so; docs/design.md#application-layer). {@link #load(DatabaseSettings,
 * Request, PrintWriter)} is the whole of {@code clients}: the arguments (files, quoted globs, a
 * tool's output folder) turned into files, loaded, and each file's format and rows said.
 */
public final class ClientLoads {
  private final ClientTimingLoader loader;

  /**
   * One {@code clients} run.
   *
   * @param arguments files, quoted globs, or a tool's output folders (AIPerf, GenAI-Perf, GuideLLM)
   * @param format a reader's name, or {@code auto} (null: auto)
   * @param runId the run's id (null: clients-UTC time)
   * @param concurrency the level of rows without one (null: what the folders' aggregate files say)
   * @param command the command line, recorded in {@code runs}
   * @param maxRejectRatio share of rejected rows above which the run exits 3 (null: the default)
   * @param read the readers' settings (request id prefix, log format, id column)
   * @param replace load files an earlier run loaded again, removing that run's rows of them first
   */
  public record Request(
      List<String> arguments,
      @Nullable String format,
      @Nullable String runId,
      @Nullable Integer concurrency,
      String command,
      @Nullable Double maxRejectRatio,
      ClientReadSettings read,
      boolean replace) {
    public Request {
      arguments = List.copyOf(arguments);
      requireNonNull(command, "command is null");
      requireNonNull(read, "read is null");
    }
  }

  public ClientLoads(Database database, Clock clock) {
    this.loader =
        new ClientTimingLoader(
            requireNonNull(database, "database is null"), requireNonNull(clock, "clock is null"));
  }

  /** With the system clock. */
  public static ClientLoads of(Database database) {
    return new ClientLoads(database, Clock.systemUTC());
  }

  /**
   * Loads one run's files.
   *
   * @param replace load files an earlier run loaded again, removing that run's rows of them first
   */
  public ClientLoadResult load(ClientLoadSettings settings, boolean replace) {
    return loader.load(settings, replace);
  }

  /**
   * The {@code clients} command: resolves the arguments (saying on {@code err} what a folder held),
   * opens the analysis file, loads the run and says each file's format and rows; returns {@link
   * ExitStatus#REJECTS} when rejects exceeded the tolerance, else {@link ExitStatus#OK}.
   *
   * @throws BadRequestException naming every argument that gives no file, or conflicting levels
   */
  public static int load(DatabaseSettings database, Request request, PrintWriter err) {
    List<Path> paths = new ArrayList<>();
    Set<Double> rates = new TreeSet<>();
    Integer level = expand(request, err, paths, rates);
    InputPaths.requireReadable(paths);
    ClientLoadSettings settings =
        ClientLoadSettings.from(
            paths,
            request.format(),
            request.runId(),
            level,
            request.command(),
            request.maxRejectRatio(),
            request.read());
    if (rates.size() == 1) {
      settings = settings.withRequestRate(rates.iterator().next());
    } else if (rates.size() > 1) {
      err.println(
          "clients: the folders' aggregate files record different request rates "
              + rates
              + "; none is kept with the run");
    }
    boolean detected = request.format() == null || "auto".equals(request.format());
    try (Database db = Database.open(database)) {
      ClientLoadResult result = ClientLoads.of(db).load(settings, request.replace());
      result.messages().forEach(err::println);
      for (ClientLoadResult.FileResult file : result.files()) {
        // the format each file was read in, so a wrong detection shows before the report does
        err.println(
            "clients: "
                + file.path()
                + ": "
                + file.format()
                + (detected ? " (detected)" : " (--format)")
                + (file.skipped() == null
                    ? ", " + file.rows() + " rows, " + file.rejected() + " rejected"
                    : ", skipped"));
      }
      err.println(result.summary());
      err.flush();
      return result.toleranceExceeded() ? ExitStatus.REJECTS : ExitStatus.OK;
    }
  }

  /**
   * Turns the arguments into files: a quoted glob into the files it matches now, a tool's output
   * folder into its per-request file (saying what was found). Returns the concurrency level for
   * rows without one: the request's when given, else the level the folders' aggregate files record.
   * The request rates those files record are added to {@code rates}.
   */
  private static @Nullable Integer expand(
      Request request, PrintWriter err, List<Path> paths, Set<Double> rates) {
    List<String> problems = new ArrayList<>();
    Set<Integer> levels = new TreeSet<>();
    for (String argument : request.arguments()) {
      Path path = Path.of(argument);
      if (!Files.exists(path) && new SourceSpec(argument, null).isGlob()) {
        List<String> matched = Globs.match(argument);
        if (matched.isEmpty()) {
          problems.add(argument + ": no file matches this pattern");
        }
        matched.forEach(file -> paths.add(Path.of(file)));
      } else if (Files.isDirectory(path)) {
        try {
          ClientArtifacts run = ClientArtifacts.find(path);
          err.println("clients: " + run.describe());
          paths.add(run.requests());
          if (run.concurrency() != null) {
            levels.add(run.concurrency());
          }
          if (run.requestRate() != null) {
            rates.add(run.requestRate());
          }
        } catch (IllegalArgumentException e) {
          problems.add(e.getMessage());
        }
      } else {
        paths.add(path);
      }
    }
    if (!problems.isEmpty()) {
      throw new BadRequestException(problems);
    }
    Integer concurrency = request.concurrency();
    if (concurrency != null) {
      if (!levels.isEmpty() && !levels.equals(Set.of(concurrency))) {
        err.println(
            "clients: --concurrency "
                + concurrency
                + " given; the aggregate file says "
                + levels
                + ": the option is used");
      }
      return concurrency;
    }
    if (levels.size() > 1) {
      throw new BadRequestException(
          "the folders' aggregate files record different concurrency levels "
              + levels
              + "; one 'clients' invocation is one run: load each folder on its own");
    }
    return levels.isEmpty() ? null : levels.iterator().next();
  }
}
