package dev.tokentrace.app;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.report.ReportFormat;
import dev.tokentrace.report.ReportService;
import dev.tokentrace.report.ReportSettings;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.rows.DataQuality;
import java.io.IOException;
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
