package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionCsvWriter;
import dev.tokentrace.correlate.attribution.AttributionResult;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.report.load.StoredResults;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.rows.DataQuality;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import org.jspecify.annotations.Nullable;

/**
 * The correlate use case over one open store: runs an attribution on an engine, full or
 * incremental, with the one after-attribution hook that stores the report's results
 * (docs/design.md#stored-report-results), and answers what the stored attribution is. {@code
 * correlate}, {@code correlate --follow}, {@code demo}, {@code analyze} and {@code report}'s
 * recompute all attribute through it.
 */
public final class Correlation {
  private final Database database;
  private final Clock clock;
  private final CorrelateEngine engine;

  /**
   * One batch {@code correlate}.
   *
   * @param rules the attribution's rules
   * @param command the command line, recorded in {@code runs}
   * @param csv where the per-request attribution is also written as CSV, or null
   * @param writeLake with a lake: write the attribution to it as its next version
   */
  public record BatchRequest(
      AttributionSettings rules, String command, @Nullable Path csv, boolean writeLake) {
    public BatchRequest {
      requireNonNull(rules, "rules is null");
      requireNonNull(command, "command is null");
    }
  }

  public Correlation(Database database, Clock clock, CorrelateEngine engine) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.engine = requireNonNull(engine, "engine is null");
  }

  /** On the default engine, with the system clock. */
  public static Correlation of(Database database) {
    return new Correlation(database, Clock.systemUTC(), CorrelateEngines.standard());
  }

  /**
   * Attributes the store's requests; when the request asks, the report's results are stored in the
   * attribution's transaction.
   */
  public CorrelateOutcome run(CorrelateRequest request) {
    AfterAttribution after =
        request.storeReportResults() ? StoredResults::store : AfterAttribution.NONE;
    return engine.attribute(database, clock, request, after);
  }

  /**
   * The batch {@code correlate}: with a lake, its committed files replace the event tables of the
   * file first; then every request is attributed on the default engine with the report's results
   * stored in its transaction (docs/design.md#stored-report-results), the attribution written to
   * the lake and the CSV when asked, and the data-quality summary said on {@code err}. Returns
   * {@link ExitStatus#USAGE} when nothing joined (a 0 % join rate is an error, with what to check),
   * else {@link ExitStatus#OK}.
   */
  public static int correlate(Workspace workspace, BatchRequest request, PrintWriter err) {
    try (Database db = workspace.open()) {
      if (workspace.lake() != null) {
        LakeEvents.Copied copied = workspace.copyLake(db);
        err.println(
            "correlate: event tables of "
                + db.name()
                + " replaced by the lake "
                + workspace.lake()
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
          correlation.run(CorrelateRequest.batch(request.rules(), request.command()));
      AttributionResult result = outcome.result();
      err.println(
          "correlate: "
              + outcome.storedResults()
              + " report query result(s) stored with the attribution of "
              + result.runId()
              + " (percentiles and evidence; a report reads them while it is current)");
      if (workspace.lake() != null && request.writeLake()) {
        err.println("correlate: " + workspace.writeAttributionToLake(db));
      }
      Path csv = request.csv();
      if (csv != null) {
        correlation.writeCsv(csv);
        err.println("attribution: " + csv);
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
      return problem == null ? ExitStatus.OK : ExitStatus.USAGE;
    }
  }

  /**
   * A 0 % join rate is an error, not a result: no client request met a server record, so nothing is
   * attributed; what to check, or null when something joined.
   */
  public static @Nullable String noJoin(DataQuality quality) {
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

  /**
   * The run id of the stored attribution when it was computed with these rules, the same formulas
   * and the same input rows, else null.
   */
  public @Nullable String current(AttributionSettings rules) {
    return attributor().current(rules);
  }

  /** The rules of the stored attribution, or null when there is none. */
  public @Nullable AttributionSettings storedSettings() {
    return attributor().storedSettings();
  }

  /** Why the stored attribution is not current for these rules, for the command's output. */
  public String whyNotCurrent(AttributionSettings rules) {
    return attributor().whyNotCurrent(rules);
  }

  /** The data-quality counts stored with an attribution run, or null when it has none. */
  public @Nullable DataQuality storedQuality(String runId) {
    return attributor().storedQuality(runId);
  }

  /** How many report results are stored with an attribution run. */
  public int storedResults(String runId) {
    return StoredResults.count(database, runId);
  }

  /**
   * A line saying which rows of the current attribution were not attributed from a streaming
   * client's view, or null when all were.
   */
  public @Nullable String vantageSummary() {
    return attributor().vantageSummary();
  }

  /** Writes the per-request attribution as CSV, one row per client request. */
  public void writeCsv(Path file) {
    new AttributionCsvWriter(database).write(file);
  }

  /** The rules in a line, as the commands print them. */
  public static String describe(AttributionSettings rules) {
    return Attributor.describe(rules);
  }

  private Attributor attributor() {
    return new Attributor(database, clock);
  }
}
