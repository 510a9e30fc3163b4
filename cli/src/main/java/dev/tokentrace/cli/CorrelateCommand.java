package dev.tokentrace.cli;

import dev.tokentrace.app.Correlation;
import dev.tokentrace.app.Workspace;
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
    return Correlation.correlate(
        Workspace.of(database.settings(), lake),
        new Correlation.BatchRequest(
            rules.settings(), CommandLines.of(spec), out, !noLakeAttribution),
        spec.commandLine().getErr());
  }
}
