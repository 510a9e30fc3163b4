package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * How every connection to a DuckDB file is opened: writers create files in a storage format that
 * DuckDB 1.4 and later read (docs/storage.md#duckdb-file-compatibility); readers open READ_ONLY, so
 * they never take the write lock, and never create a missing file.
 */
public final class DuckDbFiles {
  /**
   * The storage format of files we create: DuckDB 1.4's, which 1.4, 1.5 and 2.0 read (DuckDB 2.0's
   * own is refused by 1.x). Only takes effect when a file is created; an existing file keeps its
   * format.
   */
  public static final String STORAGE_VERSION = "v1.4.0";

  /** The header version DuckDB writes for {@link #STORAGE_VERSION}. */
  public static final long STORAGE_HEADER_VERSION = 67;

  private static final int HEADER_MAGIC_OFFSET = 8;
  private static final int HEADER_VERSION_OFFSET = 12;
  private static final byte[] MAGIC = "DUCK".getBytes(StandardCharsets.US_ASCII);

  private DuckDbFiles() {}

  /** Connection properties of a writer: limits, and the storage format of a new file. */
  public static Properties writer(String memoryLimit, int threads) {
    Properties properties = limits(memoryLimit, threads);
    properties.setProperty("storage_compatibility_version", STORAGE_VERSION);
    return properties;
  }

  /** Connection properties of a reader: limits, READ_ONLY. */
  public static Properties reader(String memoryLimit, int threads) {
    Properties properties = limits(memoryLimit, threads);
    properties.setProperty("duckdb.read_only", "true");
    return properties;
  }

  /**
   * @throws IllegalArgumentException naming the path when there is no such file (readers never
   *     create one: a typo in {@code --db} must not look like an empty database)
   */
  public static void requireExisting(Path file) {
    requireNonNull(file, "file is null");
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "no DuckDB file at "
              + file.toAbsolutePath()
              + (Files.exists(file) ? " (not a regular file)" : "")
              + ": give the --db a writing command created");
    }
  }

  /**
   * The storage version in the file's header: the little-endian 64-bit number after the 8-byte
   * checksum and the magic {@code DUCK} (docs/storage.md#duckdb-file-compatibility).
   *
   * @throws IOException when the file cannot be read or is not a DuckDB file
   */
  public static long headerVersion(Path file) throws IOException {
    byte[] header = new byte[HEADER_VERSION_OFFSET + Long.BYTES];
    try (InputStream input = Files.newInputStream(file)) {
      if (input.readNBytes(header, 0, header.length) < header.length) {
        throw new IOException(file + ": too short for a DuckDB file");
      }
    }
    for (int i = 0; i < MAGIC.length; i++) {
      if (header[HEADER_MAGIC_OFFSET + i] != MAGIC[i]) {
        throw new IOException(file + ": not a DuckDB file (no DUCK magic)");
      }
    }
    return ByteBuffer.wrap(header, HEADER_VERSION_OFFSET, Long.BYTES)
        .order(ByteOrder.LITTLE_ENDIAN)
        .getLong();
  }

  private static Properties limits(String memoryLimit, int threads) {
    // offline first: no extension is installed or loaded from the network (sql/connection/)
    Properties properties = SqlCatalog.connectionProperties();
    properties.setProperty("memory_limit", memoryLimit);
    properties.setProperty("threads", Integer.toString(threads));
    return properties;
  }
}
