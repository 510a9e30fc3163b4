package dev.tokentrace.cli;

import dev.tokentrace.app.Reports;
import dev.tokentrace.app.Workspace;
import dev.tokentrace.report.ReportSettings;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tokentrace report}: the bottleneck attribution report of what the database holds. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    showDefaultValues = true,
    sortOptions = false,
    description = {
      "Write the bottleneck attribution report: environment, core metrics (TTFT, ITL, TPOT,"
          + " throughput with P50/P90/P95), baseline comparison, latency attribution, the"
          + " bottleneck conclusion overall and per run, data quality, suggestions and a"
          + " reproducibility appendix. md prints well in a terminal, html is one self-contained"
          + " page with charts, json follows docs/report-schema.json.",
      "Without rule options the report uses the rules of the database's attribution (from the"
          + " last `correlate` or `report`); rule options given here replace them. The attribution"
          + " is reused when it was computed with those rules, the same formulas and the same input"
          + " rows, else recomputed; either is said on stderr, with the reason."
    })
final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin DatabaseOptions database = new DatabaseOptions();

  @Mixin AttributionOptions rules = new AttributionOptions();

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      description = ReportSettings.FORMAT_DOC,
      defaultValue = "md")
  @Nullable String format;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "write the report here instead of standard output")
  @Nullable Path out;

  @Option(
      names = "--baseline",
      paramLabel = "OTHER.duckdb",
      description = ReportSettings.BASELINE_DOC)
  @Nullable Path baseline;

  @Option(
      names = "--lake",
      paramLabel = "DIR",
      description =
          "take the events and rejects from this lake: its committed files as of now replace the"
              + " event tables of --db (which holds the client timings), then report as usual;"
              + " the attribution is recomputed when the events changed")
  @Nullable Path lake;

  @Override
  public Integer call() {
    return Reports.report(
        Workspace.of(database.settings(), lake),
        new Reports.Request(
            rules.settings(),
            rules.anyGiven(spec.commandLine().getParseResult()),
            format,
            baseline,
            out,
            CommandLines.of(spec)),
        spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }
}
