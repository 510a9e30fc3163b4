package dev.tokentrace.correlate.report;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** The report's environment section: server sources per engine and instance, loaded files. */
final class MarkdownEnvironment {
  /** Hashes are shortened in the table; the full value is in run_files. */
  private static final int HASH_CHARS = 12;

  private MarkdownEnvironment() {}

  static String section(ReportData data) {
    StringBuilder out = new StringBuilder("## Environment\n\n");
    if (data.sources().isEmpty()) {
      out.append("No server data is loaded.\n\n");
    } else {
      MarkdownTable sources =
          new MarkdownTable(
              "engine",
              "instance",
              "table",
              "source",
              ">events",
              ">files",
              "first (UTC)",
              "last (UTC)");
      for (ReportData.Source source : data.sources()) {
        sources.row(
            source.engine(),
            source.instance(),
            source.sourceTable(),
            source.sourceKind(),
            Long.toString(source.events()),
            Long.toString(source.files()),
            time(source.firstTs()),
            time(source.lastTs()));
      }
      out.append(sources.render()).append('\n');
    }
    if (!data.files().isEmpty()) {
      MarkdownTable files = new MarkdownTable("run", "kind", "file", ">bytes", "sha256");
      for (ReportData.LoadedFile file : data.files()) {
        files.row(
            file.runId(),
            file.fileKind(),
            file.path(),
            Long.toString(file.bytes()),
            file.sha256().substring(0, Math.min(HASH_CHARS, file.sha256().length())));
      }
      out.append(files.render()).append('\n');
    }
    return out.toString();
  }

  private static String time(@Nullable Instant instant) {
    return instant == null ? "n/a" : instant.toString();
  }
}
