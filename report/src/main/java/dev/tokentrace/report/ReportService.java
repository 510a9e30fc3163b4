package dev.tokentrace.report;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.DataQuality;
import dev.tokentrace.store.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
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
  private static final List<ReportWriter> WRITERS =
      List.of(new MarkdownReportWriter(), new HtmlReportWriter(), new JsonReportWriter());

  private static final Logger log = LoggerFactory.getLogger(ReportService.class);

  private final Database database;
  private final Clock clock;

  public ReportService(Database database, Clock clock) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** The writer for a format. */
  public static ReportWriter writer(ReportFormat format) {
    return WRITERS.stream()
        .filter(writer -> writer.format() == format)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("no writer for " + format));
  }

  /**
   * Gathers the report's numbers from the attribution in the database when the last one was
   * computed with these settings from the same inputs by the same formulas, else recomputes it.
   */
  public ReportData build(AttributionSettings settings, String command) {
    Attributor attributor = new Attributor(database, clock);
    String current = attributor.current(settings);
    DataQuality quality;
    if (current == null) {
      quality = attributor.run(settings, command).dataQuality();
    } else {
      log.info(
          "report: the attribution of {} is current (same settings, formulas and inputs): reused",
          current);
      quality = attributor.storedQuality(current);
    }
    return ReportDataLoader.load(database, clock.instant(), settings, command, quality);
  }

  /**
   * Gathers the report's numbers (recomputing the attribution when needed), with the baseline's
   * when the settings name one.
   *
   * @throws IllegalArgumentException when the baseline file does not exist
   * @throws IllegalStateException naming the baseline when it cannot be read
   */
  public ReportData build(ReportSettings settings, String command) {
    ReportData data = build(settings.attribution(), command);
    Path baseline = settings.baseline();
    return baseline == null ? data : data.withBaseline(BaselineLoader.load(database, baseline));
  }

  /** Builds and writes the report to {@code out} (not closed). */
  public void write(ReportSettings settings, String command, Appendable out) throws IOException {
    writer(settings.format()).write(build(settings, command), out);
  }

  /**
   * Builds and writes the report to {@code file}, replacing it.
   *
   * @throws UncheckedIOException naming the file when it cannot be written
   */
  public void write(ReportSettings settings, String command, Path file) {
    ReportData data = build(settings, command);
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      writer(settings.format()).write(data, out);
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
      writer(format).write(data, out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
