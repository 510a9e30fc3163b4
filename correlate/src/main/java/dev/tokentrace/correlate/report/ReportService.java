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
 * shows a stale or differently-configured attribution), gathers {@link ReportData} and renders it.
 * Thread-safe.
 */
public final class ReportService {
  private static final List<ReportWriter> WRITERS = List.of(new MarkdownReportWriter());

  private final Database database;
  private final Clock clock;

  public ReportService(Database database, Clock clock) {
    this.database = requireNonNull(database, "database is null");
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * The writer for a format.
   *
   * @throws IllegalArgumentException when the format has no writer yet
   */
  public static ReportWriter writer(ReportFormat format) {
    return WRITERS.stream()
        .filter(writer -> writer.format() == format)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "report format '" + format.id() + "' is not available yet (available: md)"));
  }

  /** Recomputes the attribution and gathers the report's numbers. */
  public ReportData build(AttributionSettings settings, String command) {
    new Attributor(database, clock).run(settings, command);
    return ReportDataLoader.load(database, clock.instant(), settings);
  }

  /** Builds and writes the report to {@code out} (not closed). */
  public void write(ReportSettings settings, String command, Appendable out) throws IOException {
    ReportWriter writer = writer(settings.format()); // fail on the format before any work
    writer.write(build(settings.attribution(), command), out);
  }

  /**
   * Builds and writes the report to {@code file}, replacing it.
   *
   * @throws UncheckedIOException naming the file when it cannot be written
   */
  public void write(ReportSettings settings, String command, Path file) {
    writer(settings.format());
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(settings, command, out);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
