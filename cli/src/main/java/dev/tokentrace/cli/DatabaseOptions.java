package dev.tokentrace.cli;

import dev.tokentrace.ingest.sink.SinkSettings;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** The analysis database options shared by every command that reads or writes DuckDB. */
final class DatabaseOptions {
  static final String DEFAULT_DB = "tokentrace.duckdb";

  @Option(
      names = "--db",
      paramLabel = "FILE",
      description =
          "DuckDB analysis file: commands that write (ingest, sink, clients, correlate) create it"
              + " when missing; sql and report require it. DuckDB 1.4 and later clients can open"
              + " it.",
      defaultValue = DEFAULT_DB)
  Path db = Path.of(DEFAULT_DB);

  @Option(
      names = "--duckdb-memory-limit",
      paramLabel = "SIZE",
      description = DatabaseSettings.MEMORY_LIMIT_DOC,
      defaultValue = DatabaseSettings.MEMORY_LIMIT_DEFAULT)
  @Nullable String memoryLimit;

  @Option(
      names = "--duckdb-threads",
      paramLabel = "N",
      description = DatabaseSettings.THREADS_DOC,
      defaultValue = "" + DatabaseSettings.THREADS_DEFAULT)
  @Nullable Integer threads;

  DatabaseSettings settings() {
    return DatabaseSettings.from(db, memoryLimit, threads);
  }

  /** The same file and limits for the Kafka sink (ingest meets correlate only at the file). */
  SinkSettings sinkSettings() {
    DatabaseSettings settings = settings();
    return new SinkSettings(
        settings.file() == null ? db : settings.file(),
        settings.memoryLimit(),
        settings.threads(),
        SinkSettings.DEFAULT_POLL_TIMEOUT,
        SinkSettings.DEFAULT_STALL_TIMEOUT);
  }
}
