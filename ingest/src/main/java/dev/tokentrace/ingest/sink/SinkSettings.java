package dev.tokentrace.ingest.sink;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * Settings of the DuckDB sink. Immutable.
 *
 * @param db {@value #DB_DOC}
 * @param memoryLimit {@value #MEMORY_LIMIT_DOC}
 * @param threads {@value #THREADS_DOC}
 * @param pollTimeout {@value #POLL_TIMEOUT_DOC}
 * @param stallTimeout {@value #STALL_TIMEOUT_DOC}
 */
public record SinkSettings(
    Path db, String memoryLimit, int threads, Duration pollTimeout, Duration stallTimeout) {

  public static final String DB_DOC =
      "the DuckDB file to write (created with the schema if missing); any DuckDB client can open"
          + " it afterwards, but only one process can write it at a time";

  public static final String DEFAULT_MEMORY_LIMIT = "1GB";
  public static final String MEMORY_LIMIT_DOC =
      "DuckDB memory_limit of the sink (e.g. 512MB, 2GB). DuckDB's own default is 80 percent of RAM,"
          + " too much next to a broker and the inference servers being watched";

  public static final int DEFAULT_THREADS = 2;
  public static final String THREADS_DOC =
      "DuckDB worker threads; the Appender itself is single-threaded, so more only helps"
          + " DuckDB's background work";

  public static final Duration DEFAULT_POLL_TIMEOUT = Duration.ofMillis(200);
  public static final String POLL_TIMEOUT_DOC =
      "longest wait of one Kafka poll; bounds how late the sink notices a stop request";

  public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(60);
  public static final String STALL_TIMEOUT_DOC =
      "when draining to known end offsets, fail after this long without a record (broker gone);"
          + " following (until stopped) waits forever";

  private static final Pattern MEMORY =
      Pattern.compile(
          "\\d+(\\.\\d+)?\\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)", Pattern.CASE_INSENSITIVE);

  public SinkSettings {
    requireNonNull(db, "db is null");
    requireNonNull(memoryLimit, "memoryLimit is null");
    requireNonNull(pollTimeout, "pollTimeout is null");
    requireNonNull(stallTimeout, "stallTimeout is null");
    if (!MEMORY.matcher(memoryLimit.strip()).matches()) {
      throw new IllegalArgumentException(
          "--duckdb-memory-limit must be a size like 512MB or 2GB: '" + memoryLimit + "'");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("--duckdb-threads must be >= 1: " + threads);
    }
    if (pollTimeout.isNegative() || pollTimeout.isZero()) {
      throw new IllegalArgumentException("pollTimeout must be > 0: " + pollTimeout);
    }
    if (stallTimeout.compareTo(pollTimeout) < 0) {
      throw new IllegalArgumentException(
          "stallTimeout must be >= pollTimeout: " + stallTimeout + " < " + pollTimeout);
    }
  }

  /** Defaults for everything but the file. */
  public static SinkSettings defaults(Path db) {
    return new SinkSettings(
        db, DEFAULT_MEMORY_LIMIT, DEFAULT_THREADS, DEFAULT_POLL_TIMEOUT, DEFAULT_STALL_TIMEOUT);
  }
}
