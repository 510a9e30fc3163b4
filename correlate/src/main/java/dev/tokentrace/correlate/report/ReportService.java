package dev.tokentrace.correlate.report;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.db.Database;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * {@code tokentrace report}: recomputes the attribution with the given rules (so a report never
 * shows a stale or differently-configured attribution), gathers {@link ReportData} (with the
 * baseline's metrics when one is given) and renders it. Thread-safe.
 */
public final class ReportService {
  private static final List<ReportWriter> WRITERS =
      List.of(new MarkdownReportWriter(), new HtmlReportWriter(), new JsonReportWriter());

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

  /** Recomputes the attribution and gathers the report's numbers. */
  public ReportData build(AttributionSettings settings, String command) {
    new Attributor(database, clock).run(settings, command);
    return ReportDataLoader.load(database, clock.instant(), settings, command);
  }

  /**
   * Recomputes the attribution and gathers the report's numbers, with the baseline's when the
   * settings name one.
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
