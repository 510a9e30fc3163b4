package dev.tokentrace.cli;

import dev.tokentrace.app.ClientLoads;
import dev.tokentrace.clients.ClientArtifacts;
import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.ingest.follow.Globs;
import dev.tokentrace.ingest.follow.SourceSpec;
import dev.tokentrace.store.Database;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tokentrace clients}: loads benchmark-client timing files into the analysis database. */
@Command(
    name = "clients",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Load client (black-box) timing files: one row per request with start time, first-token"
          + " latency, end-to-end time and tokens. Bad rows are reported as 'path:line: client:"
          + " reason', stored in the rejects table and skipped.",
      "Also JMeter JTL (CSV or XML), our wrk script's rows, and gateway access logs (NGINX,"
          + " Envoy): these see only the end of a response and are attributed by the end-to-end"
          + " view; a gateway log splits network into client-gateway and gateway-engine, or"
          + " stands in for the client when there is none (production).",
      "One invocation is one run; a file already loaded (same SHA-256) is skipped unless --replace"
          + " is given. Files that yield no row at all are an error (exit 2), with a hint."
    })
final class ClientsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Parameters(
      paramLabel = "FILE|DIR|GLOB",
      arity = "1..*",
      description =
          "client timing files; a quoted glob ('runs/*.jsonl', ** spans directories); or a tool's"
              + " output folder (AIPerf artifacts, GenAI-Perf export, GuideLLM report), whose"
              + " per-request file is loaded with the concurrency its aggregate file records (a"
              + " request rate it records is kept with the run and shown in the report)",
      showDefaultValue = Help.Visibility.NEVER)
  List<String> files = List.of();

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = ClientLoadSettings.FORMAT_DOC,
      defaultValue = ClientLoadSettings.FORMAT_DEFAULT)
  @Nullable String format;

  @Option(
      names = "--request-id-prefix",
      paramLabel = "PREFIX",
      description = ClientReadSettings.REQUEST_ID_PREFIX_DOC)
  @Nullable String requestIdPrefix;

  @Option(
      names = "--log-format",
      paramLabel = "FORMAT",
      description = ClientReadSettings.LOG_FORMAT_DOC)
  @Nullable String logFormat;

  @Option(
      names = "--id-column",
      paramLabel = "NAME",
      description = ClientReadSettings.ID_COLUMN_DOC)
  @Nullable String idColumn;

  @Option(
      names = "--run-id",
      paramLabel = "ID",
      description = "run id (default clients-<UTC time>)")
  @Nullable String runId;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      description = ClientLoadSettings.CONCURRENCY_DOC)
  @Nullable Integer concurrency;

  @Option(
      names = "--max-reject-ratio",
      paramLabel = "RATIO",
      description = ClientLoadSettings.MAX_REJECT_RATIO_DOC,
      defaultValue = "" + ClientLoadSettings.MAX_REJECT_RATIO_DEFAULT)
  @Nullable Double maxRejectRatio;

  @Option(
      names = "--replace",
      description =
          "load files an earlier run already loaded again, removing that run's rows of them first"
              + " (a file loaded with the wrong options); a --run-id already taken is taken over")
  boolean replace;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    List<Path> paths = new ArrayList<>();
    Set<Double> rates = new TreeSet<>();
    Integer level = expand(err, paths, rates);
    InputPaths.requireReadable(paths);
    ClientLoadSettings settings =
        ClientLoadSettings.from(
            paths,
            format,
            runId,
            level,
            CommandLines.of(spec),
            maxRejectRatio,
            new ClientReadSettings(requestIdPrefix, logFormat, idColumn));
    if (rates.size() == 1) {
      settings = settings.withRequestRate(rates.iterator().next());
    } else if (rates.size() > 1) {
      err.println(
          "clients: the folders' aggregate files record different request rates "
              + rates
              + "; none is kept with the run");
    }
    try (Database db = Database.open(database.settings())) {
      ClientLoadResult result = ClientLoads.of(db).load(settings, replace);
      result.messages().forEach(err::println);
      err.println(result.summary());
      err.flush();
      return result.toleranceExceeded() ? ExitCodes.REJECTS : ExitCodes.OK;
    }
  }

  /**
   * Turns the arguments into files: a quoted glob into the files it matches now, a tool's output
   * folder into its per-request file (saying what was found). Returns the concurrency level for
   * rows without one: --concurrency when given, else the level the folders' aggregate files record.
   * The request rates those files record are added to {@code rates}.
   */
  private @Nullable Integer expand(PrintWriter err, List<Path> paths, Set<Double> rates) {
    List<String> problems = new ArrayList<>();
    Set<Integer> levels = new TreeSet<>();
    for (String argument : files) {
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
      throw new UsageException(problems);
    }
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
      throw new UsageException(
          "the folders' aggregate files record different concurrency levels "
              + levels
              + "; one 'clients' invocation is one run: load each folder on its own");
    }
    return levels.isEmpty() ? null : levels.iterator().next();
  }
}
