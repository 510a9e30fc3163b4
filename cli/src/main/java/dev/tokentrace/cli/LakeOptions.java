package dev.tokentrace.cli;

import dev.tokentrace.ingest.sink.LakeSinkSettings;
import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeCompactor;
import java.nio.file.Path;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The Parquet lake options of the live sinks ({@code sink}, {@code ingest --follow}). */
final class LakeOptions {
  @Option(
      names = "--lake",
      paramLabel = "DIR",
      description =
          LakeSinkSettings.LAKE_DOC
              + " (instead of --db; docs/storage.md#the-parquet-lake). 'sql --lake DIR' queries it")
  @Nullable Path lake;

  @Option(
      names = "--group",
      paramLabel = "NAME",
      description = "with --lake: " + LakeSinkSettings.GROUP_DOC,
      defaultValue = LakeSinkSettings.DEFAULT_GROUP)
  String group = LakeSinkSettings.DEFAULT_GROUP;

  @Option(
      names = "--flush-interval",
      paramLabel = "DURATION",
      description = "with --lake: " + LakeSinkSettings.FLUSH_INTERVAL_DOC,
      converter = DurationConverter.class,
      defaultValue = "1s")
  Duration flushInterval = LakeSinkSettings.DEFAULT_FLUSH_INTERVAL;

  @Option(
      names = "--flush-rows",
      paramLabel = "N",
      description = "with --lake: " + LakeSinkSettings.FLUSH_ROWS_DOC,
      defaultValue = "" + LakeSinkSettings.DEFAULT_FLUSH_ROWS)
  long flushRows = LakeSinkSettings.DEFAULT_FLUSH_ROWS;

  @Option(
      names = "--compact-interval",
      paramLabel = "DURATION",
      description = "with --lake: " + LakeSinkSettings.COMPACT_INTERVAL_DOC,
      converter = DurationConverter.class,
      defaultValue = "60s")
  Duration compactInterval = LakeSinkSettings.DEFAULT_COMPACT_INTERVAL;

  @Option(
      names = "--compact-grace",
      paramLabel = "DURATION",
      description =
          "with --lake: how long merged files' inputs are kept for readers that listed them"
              + " before the merge",
      converter = DurationConverter.class,
      defaultValue = "60s")
  Duration compactGrace = LakeCompactor.Settings.DEFAULT_GRACE;

  boolean enabled() {
    return lake != null;
  }

  LakeSinkSettings settings(DatabaseSettings database) {
    if (lake == null) {
      throw new IllegalStateException("no --lake");
    }
    return new LakeSinkSettings(
        lake,
        group,
        flushInterval,
        flushRows,
        compactInterval,
        LakeCompactor.Settings.defaults().withGrace(compactGrace),
        database.memoryLimit(),
        database.threads(),
        SinkSettings.DEFAULT_POLL_TIMEOUT,
        SinkSettings.DEFAULT_STALL_TIMEOUT);
  }
}
