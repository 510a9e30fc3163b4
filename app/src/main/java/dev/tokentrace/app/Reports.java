package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DuckDbFiles;
import dev.tokentrace.store.rows.DataQuality;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The report use case over one open store: reuses the stored attribution when it was computed with
 * the report's rules from the same inputs by the same formulas (reading the results stored with it,
 * docs/design.md#stored-report-results), else attributes again through {@link Correlation} on the
 * engine (storing no results: a report never writes them), then gathers and renders the report.
 */
public final class Reports {
  private static final Logger log = LoggerFactory.getLogger(Reports.class);

  private final Database database;
  private final Clock clock;
  private final CorrelateEngine engine;

  /**
   * One {@code report}.
   *
   * @param rules the attribution's rules the command line gives (its defaults when none given)
   * @param rulesGiven whether the command line gave any rule; without, the stored attribution's
   *     rules are used, so a report never silently recomputes with other ones
   * @param format md, html or json (null: md)
   * @param baseline another analysis file to compare with, or null
   * @param out the file the report is written to, or null for standard output
   * @param command the command line, recorded with an attribution it computes and in the appendix
   */
  public record Request(
      AttributionSettings rules,
      boolean rulesGiven,
      @Nullable String format,
      @Nullable Path baseline,
      @Nullable Path out,
      String command) {
    public Request {
      requireNonNull(rules, "rules is null");
      requireNonNull(command, "command is null");
    }
  }

  public Reports(Database database, Clock clock, CorrelateEngine engine) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.engine = requireNonNull(engine, "engine is null");
  }

  /** On the default engine, with the system clock. */
  public static Reports of(Database database) {
    return new Reports(database, Clock.systemUTC(), CorrelateEngines.standard());
  }

  /**
   * The {@code report} command: never writes the analysis file (docs/storage.md#read-only-readers).
   * When the stored attribution is current (the usual case after {@code correlate}) the file is
   * read as it is; otherwise a recomputed attribution and, with a lake, the lake's event tables
   * live in an in-memory database that attaches it (copying request_attribution into memory only
   * then: seconds per million requests). Says on {@code err} which rules it uses and whether the
   * attribution is reused or recomputed and why; writes the report to the request's file or to
   * {@code out}.
   *
   * @throws IllegalArgumentException when the file does not exist (a typo, never a new database)
   */
  public static int report(Workspace workspace, Request request, PrintWriter out, PrintWriter err) {
    Path file = workspace.database().file();
    DuckDbFiles.requireExisting(requireNonNull(file, "a report reads a file"));
    if (workspace.lake() == null) {
      try (Database plain = workspace.openReadOnly()) {
        AttributionSettings chosen = rules(plain, request, true, err);
        if (Correlation.of(plain).current(chosen) != null) {
          return write(plain, chosen, request, out, err);
        }
      }
    }
    try (Database db = workspace.openScratch()) {
      if (workspace.lake() != null) {
        LakeEvents.Copied copied = workspace.copyLake(db);
        err.println(
            "report: event tables read from the lake "
                + workspace.lake()
                + " ("
                + copied.rows()
                + " rows from "
                + copied.files()
                + " files) in place of "
                + db.name()
                + "'s, in memory: the file is not written");
        for (String skipped : copied.skipped()) {
          err.println("report: " + skipped);
        }
      }
      // without a lake the messages were printed when the file was read as it is
      return write(db, rules(db, request, workspace.lake() != null, err), request, out, err);
    }
  }

  private static int write(
      Database db, AttributionSettings chosen, Request request, PrintWriter out, PrintWriter err) {
    try {
      ReportSettings settings = ReportSettings.from(request.format(), chosen, request.baseline());
      Reports service = Reports.of(db);
      Path file = request.out();
      if (file != null) {
        service.write(settings, request.command(), file);
        err.println("report: " + file);
      } else {
        service.write(settings, request.command(), out);
        out.flush();
      }
      return ExitStatus.OK;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report", e);
    }
  }

  /**
   * The rules the request gives; without any, the rules of the stored attribution (the last {@code
   * correlate}). Says which, and whether the attribution is reused or recomputed and why.
   */
  private static AttributionSettings rules(
      Database db, Request request, boolean say, PrintWriter err) {
    Correlation attributor = Correlation.of(db);
    AttributionSettings stored = attributor.storedSettings();
    boolean given = request.rulesGiven();
    AttributionSettings chosen = given || stored == null ? request.rules() : stored;
    if (!say) {
      return chosen;
    }
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

  /**
   * The report's numbers, with the baseline's when the settings name one; attributes first unless
   * the stored attribution is current.
   *
   * @param command the command line, recorded with an attribution it computes and in the appendix
   */
  public ReportData build(ReportSettings settings, String command) {
    Correlation correlation = new Correlation(database, clock, engine);
    String current = correlation.current(settings.attribution());
    @Nullable DataQuality quality;
    if (current == null) {
      quality =
          correlation
              .run(
                  new CorrelateRequest(
                      settings.attribution(), command, CorrelateRequest.Mode.FULL, false))
              .result()
              .dataQuality();
    } else {
      log.info(
          "report: the attribution of {} is current (same settings, formulas and inputs): reused",
          current);
      quality = correlation.storedQuality(current);
    }
    ReportService service = new ReportService(database, clock);
    return service.withBaseline(
        service.load(settings.attribution(), command, quality, current), settings);
  }

  /** Builds the report and writes it in the settings' format to {@code out} (not closed). */
  public void write(ReportSettings settings, String command, Appendable out) throws IOException {
    ReportService.render(build(settings, command), settings.format(), out);
  }

  /**
   * Builds the report and writes it to {@code file}, replacing it.
   *
   * @throws UncheckedIOException naming the file when it cannot be written
   */
  public void write(ReportSettings settings, String command, Path file) {
    write(build(settings, command), settings.format(), file);
  }

  /**
   * Writes one built report in one format, e.g. Markdown and HTML from one attribution.
   *
   * @throws UncheckedIOException naming the file when it cannot be written
   */
  public static void write(ReportData data, ReportFormat format, Path file) {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      ReportService.render(data, format, out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
