package dev.tokentrace.report;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.report.analysis.ReportAnalysis;
import dev.tokentrace.report.load.BaselineLoader;
import dev.tokentrace.report.load.ReportDataLoader;
import dev.tokentrace.report.model.Report;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportRenderer;
import dev.tokentrace.report.render.html.HtmlReportWriter;
import dev.tokentrace.report.render.json.JsonReportWriter;
import dev.tokentrace.report.render.markdown.MarkdownReportWriter;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.rows.DataQuality;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tokentrace report}: recomputes the attribution with the given rules unless the one in the
 * database was computed with the same rules, formulas and inputs (so a report never shows a stale
 * or differently-configured attribution, and a report after {@code correlate} does not redo its
 * minutes of work), gathers {@link ReportData} (with the baseline's metrics when one is given) and
 * renders it. Thread-safe.
 */
public final class ReportService {
  private static final Map<ReportFormat, ReportRenderer> RENDERERS =
      Map.of(
          ReportFormat.MARKDOWN, new MarkdownReportWriter(),
          ReportFormat.HTML, new HtmlReportWriter(),
          ReportFormat.JSON, new JsonReportWriter());

  private static final Logger log = LoggerFactory.getLogger(ReportService.class);

  private final Database database;
  private final Clock clock;

  public ReportService(Database database, Clock clock) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** The renderer of a format. */
  public static ReportRenderer renderer(ReportFormat format) {
    ReportRenderer renderer = RENDERERS.get(format);
    if (renderer == null) {
      throw new IllegalStateException("no renderer for " + format);
    }
    return renderer;
  }

  /** Draws the conclusions from {@code data} and writes them in one format to {@code out}. */
  public static void render(ReportData data, ReportFormat format, Appendable out)
      throws IOException {
    long started = System.nanoTime();
    Report analysis = ReportAnalysis.of(data);
    long analysed = System.nanoTime();
    renderer(format).write(analysis, out);
    log.debug(
        "report: analysis {} ms, {} rendering {} ms",
        (analysed - started) / 1_000_000,
        format,
        (System.nanoTime() - analysed) / 1_000_000);
  }

  /**
   * Gathers the report's numbers from the attribution in the database when the last one was
   * computed with these settings from the same inputs by the same formulas, else recomputes it.
   */
  public ReportData build(AttributionSettings settings, String command) {
    Attributor attributor = new Attributor(database, clock);
    String current = attributor.current(settings);
    DataQuality quality;
    String storedRun = current;
    if (current == null) {
      quality = attributor.run(settings, command).dataQuality();
    } else {
      log.info(
          "report: the attribution of {} is current (same settings, formulas and inputs): reused",
          current);
      quality = attributor.storedQuality(current);
    }
    return load(settings, command, quality, storedRun);
  }

  /**
   * Gathers the report's numbers from the attribution the database holds now, computed by the
   * caller (the application layer's report use case attributes on its engine first when the stored
   * attribution is not current): {@code quality} its data-quality counts, {@code storedRun} its run
   * id when the report's stored results may be read (docs/design.md#stored-report-results), else
   * null.
   */
  public ReportData load(
      AttributionSettings settings,
      String command,
      @Nullable DataQuality quality,
      @Nullable String storedRun) {
    long started = System.nanoTime();
    ReportData data =
        ReportDataLoader.load(database, clock.instant(), settings, command, quality, storedRun);
    log.debug("report: loading {} ms", (System.nanoTime() - started) / 1_000_000);
    return data;
  }

  /** {@code data} with the baseline's metrics when the settings name one. */
  public ReportData withBaseline(ReportData data, ReportSettings settings) {
    Path baseline = settings.baseline();
    return baseline == null ? data : data.withBaseline(BaselineLoader.load(database, baseline));
  }

  /**
   * Gathers the report's numbers (recomputing the attribution when needed), with the baseline's
   * when the settings name one.
   *
   * @throws IllegalArgumentException when the baseline file does not exist
   * @throws IllegalStateException naming the baseline when it cannot be read
   */
  public ReportData build(ReportSettings settings, String command) {
    return withBaseline(build(settings.attribution(), command), settings);
  }

  /** Builds and writes the report to {@code out} (not closed). */
  public void write(ReportSettings settings, String command, Appendable out) throws IOException {
    render(build(settings, command), settings.format(), out);
  }

  /**
   * Builds and writes the report to {@code file}, replacing it.
   *
   * @throws UncheckedIOException naming the file when it cannot be written
   */
  public void write(ReportSettings settings, String command, Path file) {
    ReportData data = build(settings, command);
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      render(data, settings.format(), out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /**
   * Writes one already built report in several formats, e.g. Markdown and HTML from one
   * attribution.
   *
   * @throws UncheckedIOException naming the file when one cannot be written
   */
  public static void write(ReportData data, ReportFormat format, Path file) {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      render(data, format, out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
