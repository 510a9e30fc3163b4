package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionCsvWriter;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.report.load.StoredResults;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.rows.DataQuality;
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
