package dev.tokentrace.cli;

import dev.tokentrace.app.Correlation;
import dev.tokentrace.app.Reports;
import dev.tokentrace.app.Workspace;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DuckDbFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
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
    // a report of a file that does not exist is a typo, never a new empty database (exit 2); the
    // file is opened READ_ONLY, and an attribution the report recomputes stays in memory
    DuckDbFiles.requireExisting(database.db);
    // report never writes the file (docs/storage.md#read-only-readers). When the stored
    // attribution is current (the usual case after `correlate`) the file is read as it is;
    // otherwise a recomputed attribution and, with --lake, the lake's event tables live in an
    // in-memory database that attaches it (copying request_attribution into memory only then:
    // seconds per million requests)
    Workspace workspace = Workspace.of(database.settings(), lake);
    if (lake == null) {
      try (Database plain = workspace.openReadOnly()) {
        AttributionSettings chosen = rules(plain, true);
        if (Correlation.of(plain).current(chosen) != null) {
          return write(plain, chosen);
        }
      }
    }
    try (Database db = workspace.openScratch()) {
      if (lake != null) {
        LakeEvents.Copied copied = workspace.copyLake(db);
        spec.commandLine()
            .getErr()
            .println(
                "report: event tables read from the lake "
                    + lake
                    + " ("
                    + copied.rows()
                    + " rows from "
                    + copied.files()
                    + " files) in place of "
                    + db.name()
                    + "'s, in memory: the file is not written");
        for (String skipped : copied.skipped()) {
          spec.commandLine().getErr().println("report: " + skipped);
        }
      }
      // without --lake the messages were printed when the file was read as it is
      return write(db, rules(db, lake != null));
    }
  }

  private Integer write(Database db, AttributionSettings chosen) {
    try {
      ReportSettings settings = ReportSettings.from(format, chosen, baseline);
      Reports service = Reports.of(db);
      if (out != null) {
        service.write(settings, CommandLines.of(spec), out);
        spec.commandLine().getErr().println("report: " + out);
      } else {
        PrintWriter stdout = spec.commandLine().getOut();
        service.write(settings, CommandLines.of(spec), stdout);
        stdout.flush();
      }
      return ExitCodes.OK;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report", e);
    }
  }

  /**
   * The rules given on the command line; without any, the rules of the stored attribution (the last
   * {@code correlate}), so a report never silently recomputes with other ones. Says which, and
   * whether the attribution is reused or recomputed and why.
   */
  private AttributionSettings rules(Database db, boolean say) {
    Correlation attributor = Correlation.of(db);
    AttributionSettings stored = attributor.storedSettings();
    boolean given = rules.anyGiven(spec.commandLine().getParseResult());
    AttributionSettings chosen = given || stored == null ? rules.settings() : stored;
    if (!say) {
      return chosen;
    }
    PrintWriter err = spec.commandLine().getErr();
    if (!given && stored != null) {
      err.println("report: the stored attribution's rules: " + Correlation.describe(stored));
    }
    String current = attributor.current(chosen);
    if (current != null) {
      err.println(
          "report: reusing the attribution of " + current + " (same rules, data, formulas)");
      int results = attributor.storedResults(current);
      err.println(
          results > 0
              ? "report: reading the "
                  + results
                  + " percentile and evidence result(s) `correlate` stored with it"
              : "report: no percentile or evidence results are stored with it (stored by a batch"
                  + " `correlate` only): computing them from its rows");
    } else {
      err.println(
          "report: recomputing the attribution with "
              + Correlation.describe(chosen)
              + ": "
              + attributor.whyNotCurrent(chosen)
              + " (in memory: the file is opened read-only and stays as it is; 'correlate' stores"
              + " an attribution)");
    }
    err.flush();
    return chosen;
  }
}
