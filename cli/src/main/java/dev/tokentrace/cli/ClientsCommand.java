package dev.tokentrace.cli;

import dev.tokentrace.app.ClientLoads;
import dev.tokentrace.clients.ClientReadSettings;
import dev.tokentrace.correlate.client.ClientLoadSettings;
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
    return ClientLoads.load(
        database.settings(),
        new ClientLoads.Request(
            files,
            format,
            runId,
            concurrency,
            CommandLines.of(spec),
            maxRejectRatio,
            new ClientReadSettings(requestIdPrefix, logFormat, idColumn),
            replace),
        spec.commandLine().getErr());
  }
}
