package dev.tokentrace.exporter;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Where the exporter reads from: a DuckDB file opened read-only for each poll ({@link
 * DuckDbFileStore}) or a lake's views. Each {@link #open()} is a fresh, consistent read; the caller
 * closes the session, so no lock is held between polls.
 */
public interface StoreReader {
  /** A connection to read the store's tables (or views of the same names) from. */
  Session open() throws SQLException;

  /** The store as the user named it, for messages. */
  String describe();

  /** An open read of the store. */
  interface Session extends AutoCloseable {
    Connection connection();

    @Override
    void close() throws SQLException;
  }
}
