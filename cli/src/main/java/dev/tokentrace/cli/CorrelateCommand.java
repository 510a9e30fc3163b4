package dev.tokentrace.cli;

import dev.tokentrace.app.CorrelateOutcome;
import dev.tokentrace.app.CorrelateRequest;
import dev.tokentrace.app.Correlation;
import dev.tokentrace.app.Workspace;
import dev.tokentrace.correlate.attribution.AttributionResult;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.rows.DataQuality;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tokentrace correlate}: joins client and server by request key and attributes latency. */
@Command(
    name = "correlate",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Join client timings with server records by request key and attribute each request's"
          + " latency to network, queueing, prefill and decode.",
      "  network_ttft = client_ttft - client_queue - (queue + prefill)",
      "  network      = client_e2e  - client_queue - (queue + prefill + decode)",
      "Rows land in the request_attribution table (with --lake also in the lake, as a new"
          + " version); --out also writes them as CSV, one row per client request (matched or"
          + " not). A join rate of 0%% exits 2 with a hint."
    })
final class CorrelateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Mixin AttributionOptions rules = new AttributionOptions();

  @Option(
      names = "--out",
      paramLabel = "CSV",
      description = "also write the per-request attribution as CSV here")
  @Nullable Path out;

  /**
   * A 0 % join rate is an error, not a result: no client request met a server record, so nothing is
   * attributed; what to check, or null when something joined.
   */
  static @Nullable String noJoin(DataQuality quality) {
    Double rate = quality.joinRate();
    if (quality.clientRows() == 0 || rate == null || rate > 0 || quality.heuristicRows() > 0) {
      return null;
    }
    if (quality.serverTimingKeys() + quality.serverArrivalKeys() == 0) {
      return "join rate 0%: no server request record is loaded; ingest the server's logs first";
    }
    return "join rate 0%: no client request ID matches one the server logged. Check that the"
        + " client file belongs to these servers; vLLM bench files need `clients --replace"
        + " --request-id-prefix PREFIX` (the prefix bench serve was given); clients whose IDs the"
        + " server never saw (SGLang bench, LLMPerf, TensorRT-LLM) join only with --match heuristic";
  }

  @Option(
      names = "--lake",
      paramLabel = "DIR",
      description =
          "take the events and rejects from this lake: its committed files as of now replace the"
              + " event tables of --db (client timings and attribution stay in --db), then"
              + " attribute as usual")
  @Nullable Path lake;

  @Option(
      names = "--no-lake-attribution",
      description =
          "with --lake: do not write request_attribution to the lake (by default each"
              + " attribution is also written there as a new version, read by sql --lake, serve"
              + " --lake and Python while correlate runs; docs/live.md#the-attribution-in-the-lake)")
  boolean noLakeAttribution;

  @Option(
      names = "--follow",
      description =
          "keep attributing until SIGTERM or Ctrl-C: every --interval, when the lake's files or"
              + " the client rows changed, copy the lake's new files (all of them after a"
              + " compaction) and attribute again the requests whose rows changed (each round"
              + " gives exactly the batch result on the data of that moment; a line of its timings"
              + " follows); --db is opened only for a round, so sql, report, clients and serve can"
              + " use it between rounds")
  boolean follow;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      description = "with --follow: how often to look for new data",
      converter = DurationConverter.class,
      defaultValue = "5s")
  Duration interval = Duration.ofSeconds(5);

  @Override
  public Integer call() {
    if (follow) {
      return new FollowCorrelation(
              spec,
              Workspace.of(database.settings(), lake),
              rules.settings(),
              lake != null && !noLakeAttribution,
              interval)
          .run();
    }
    PrintWriter err = spec.commandLine().getErr();
    Workspace workspace = Workspace.of(database.settings(), lake);
    try (Database db = workspace.open()) {
      if (lake != null) {
        LakeEvents.Copied copied = workspace.copyLake(db);
        err.println(
            "correlate: event tables of "
                + db.name()
                + " replaced by the lake "
                + lake
                + ": "
                + copied.rows()
                + " rows from "
                + copied.files()
                + " files");
        for (String skipped : copied.skipped()) {
          err.println("correlate: " + skipped);
        }
      }
      // the report's percentiles and evidence, computed once with the attribution and read by
      // every report while it is current (docs/design.md#stored-report-results)
      Correlation correlation = Correlation.of(db);
      CorrelateOutcome outcome =
          correlation.run(CorrelateRequest.batch(rules.settings(), CommandLines.of(spec)));
      AttributionResult result = outcome.result();
      err.println(
          "correlate: "
              + outcome.storedResults()
              + " report query result(s) stored with the attribution of "
              + result.runId()
              + " (percentiles and evidence; a report reads them while it is current)");
      if (lake != null && !noLakeAttribution) {
        err.println("correlate: " + workspace.writeAttributionToLake(db));
      }
      if (out != null) {
        correlation.writeCsv(out);
        err.println("attribution: " + out);
      }
      DataQuality quality = result.dataQuality();
      err.println(quality.summary());
      String vantage = correlation.vantageSummary();
      if (vantage != null) {
        err.println(vantage);
      }
      String problem = noJoin(quality);
      if (problem != null) {
        err.println("correlate: " + problem);
      }
      err.flush();
      return problem == null ? ExitCodes.OK : ExitCodes.USAGE;
    }
  }
}
