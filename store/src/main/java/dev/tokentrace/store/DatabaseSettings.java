package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * How to open the analysis database: a DuckDB file, or an in-memory database when {@code file} is
 * null, with DuckDB's memory limit and worker threads.
 */
public record DatabaseSettings(@Nullable Path file, String memoryLimit, int threads) {
  public static final String MEMORY_LIMIT_CONFIG = "duckdb.memory-limit";
  public static final String MEMORY_LIMIT_DOC =
      "DuckDB memory_limit, e.g. 512MB or 2GB. DuckDB's own default is 80 percent of RAM, too greedy"
          + " beside an inference server or in CI.";
  public static final String MEMORY_LIMIT_DEFAULT = "1GB";

  public static final String THREADS_CONFIG = "duckdb.threads";
  public static final String THREADS_DOC =
      "DuckDB worker threads. Attribution and report queries are small; a low count keeps the tool"
          + " polite on a shared host.";
  public static final int THREADS_DEFAULT = 2;

  private static final Pattern MEMORY =
      Pattern.compile(
          "\\d+(\\.\\d+)?\\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", Pattern.CASE_INSENSITIVE);

  public DatabaseSettings {
    requireNonNull(memoryLimit, "memoryLimit is null");
    if (!MEMORY.matcher(memoryLimit.strip()).matches()) {
      throw new IllegalArgumentException(
          "--duckdb-memory-limit must be a size such as 512MB or 2GB: '" + memoryLimit + "'");
    }
    memoryLimit = memoryLimit.strip();
    if (threads < 1) {
      throw new IllegalArgumentException("--duckdb-threads must be >= 1: " + threads);
    }
  }

  /** A DuckDB file (created when missing) with default limits. */
  public static DatabaseSettings file(Path file) {
    return new DatabaseSettings(
        requireNonNull(file, "file is null"), MEMORY_LIMIT_DEFAULT, THREADS_DEFAULT);
  }

  /** An in-memory database with default limits, gone when closed. */
  public static DatabaseSettings inMemory() {
    return new DatabaseSettings(null, MEMORY_LIMIT_DEFAULT, THREADS_DEFAULT);
  }

  /** The settings the CLI options give; null options take the defaults. */
  public static DatabaseSettings from(
      @Nullable Path file, @Nullable String memoryLimit, @Nullable Integer threads) {
    return new DatabaseSettings(
        file,
        memoryLimit == null ? MEMORY_LIMIT_DEFAULT : memoryLimit,
        threads == null ? THREADS_DEFAULT : threads);
  }
}
