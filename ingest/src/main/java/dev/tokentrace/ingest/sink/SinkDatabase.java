package dev.tokentrace.ingest.sink;

import dev.tokentrace.store.DuckDbFiles;
import dev.tokentrace.store.SqlCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.duckdb.DuckDBConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink's DuckDB file: one connection in manual-commit mode, the schema applied and checked on
 * open, and {@code kafka_offsets}, the next offset per partition written in the same transaction as
 * the rows. Not thread-safe.
 */
final class SinkDatabase implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SinkDatabase.class);

  private static final String UPSERT_OFFSET =
      "INSERT INTO kafka_offsets VALUES (?, ?, ?, ?) ON CONFLICT (topic, part) DO UPDATE SET next_offset = excluded.next_offset, topic_id = excluded.topic_id";
  private static final String SELECT_OFFSETS =
      "SELECT topic, part, next_offset, topic_id FROM kafka_offsets";

  /**
   * WAL size at which DuckDB checkpoints (its default is 16 MB). A checkpoint runs inside the
   * commit that crosses the threshold and holds the sink for as long as it takes to write the row
   * groups: at 20 k events/s that was every few seconds, and it made up the tail of the
   * line-to-queryable time (P95 2.0 s against 0.5 s with a larger WAL, BENCHMARKS.md). 256 MB
   * checkpoints about once a minute at that rate; the file is checkpointed on close as well.
   */
  static final String WAL_AUTOCHECKPOINT = "256MB";

  private final DuckDBConnection connection;
  private final PreparedStatement upsertOffset;
  private final Path path;

  private SinkDatabase(DuckDBConnection connection, PreparedStatement upsertOffset, Path path) {
    this.connection = connection;
    this.upsertOffset = upsertOffset;
    this.path = path;
  }

  /**
   * Opens or creates the file with {@code memory_limit} and {@code threads} set, applies and checks
   * the schema.
   *
   * @throws IllegalStateException naming the file (locked by another process, unreadable, schema
   *     mismatch)
   */
  static SinkDatabase open(SinkSettings settings) {
    Path path = settings.db().toAbsolutePath();
    createParent(path);
    Properties properties = SqlCatalog.connectionProperties();
    properties.setProperty("memory_limit", settings.memoryLimit().strip());
    properties.setProperty("threads", Integer.toString(settings.threads()));
    properties.setProperty("wal_autocheckpoint", WAL_AUTOCHECKPOINT);
    // a new file in the storage format DuckDB 1.4 and later read
    // (docs/storage.md#duckdb-file-compatibility)
    properties.setProperty("storage_compatibility_version", DuckDbFiles.STORAGE_VERSION);
    DuckDBConnection connection = null;
    try {
      connection =
          DriverManager.getConnection("jdbc:duckdb:" + path, properties)
              .unwrap(DuckDBConnection.class);
      DuckDbSchema.apply(connection, path.toString());
      DuckDbSchema.verify(connection);
      connection.setAutoCommit(false);
      return new SinkDatabase(connection, connection.prepareStatement(UPSERT_OFFSET), path);
    } catch (SQLException | RuntimeException e) {
      IllegalStateException failure =
          e instanceof IllegalStateException
              ? (IllegalStateException) e
              : new IllegalStateException("duckdb " + path + ": cannot open: " + e.getMessage(), e);
      closeQuietly(connection, failure);
      throw failure;
    }
  }

  /**
   * Upserts the next offset of every partition in {@code nextOffsets}. Called first in each
   * transaction: as the first statement it opens the transaction that the Appenders then write into
   * (docs/design.md#appender-and-transactions); and again before the commit with the offsets the
   * transaction reached.
   */
  void storeOffsets(Map<TopicPartition, Long> nextOffsets, TopicLayout layout) throws SQLException {
    for (Map.Entry<TopicPartition, Long> partition : nextOffsets.entrySet()) {
      upsertOffset.setString(1, partition.getKey().topic());
      upsertOffset.setInt(2, partition.getKey().partition());
      upsertOffset.setLong(3, partition.getValue());
      upsertOffset.setString(4, layout.topicIds().get(partition.getKey().topic()));
      upsertOffset.executeUpdate();
    }
  }

  /**
   * The committed next offset of each partition in {@code layout} that has one. Offsets stored for
   * another topic id (an older topic of the same name) are ignored: that topic starts over.
   */
  Map<TopicPartition, Long> committedOffsets(TopicLayout layout) throws SQLException {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    Set<String> stale = new TreeSet<>();
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(SELECT_OFFSETS)) {
      while (result.next()) {
        String topic = result.getString(1);
        String id = layout.topicIds().get(topic);
        if (id != null && id.equals(result.getString(4))) {
          offsets.put(new TopicPartition(topic, result.getInt(2)), result.getLong(3));
        } else if (id != null) {
          stale.add(topic);
        }
      }
    }
    connection.commit(); // end the read transaction, so the next batch starts a fresh one
    if (!stale.isEmpty()) {
      log.warn(
          "duckdb {}: stored offsets of {} belong to an older topic of the same name (another"
              + " broker, or deleted and created again); reading the current one from its start",
          path,
          stale);
    }
    return offsets;
  }

  /** Appenders for one batch; close them before {@link #commit()} or {@link #rollback()}. */
  Appenders appenders() {
    return new Appenders(connection);
  }

  /** The sink's own connection, for statements that must run in its transaction. */
  DuckDBConnection connection() {
    return connection;
  }

  void commit() throws SQLException {
    connection.commit();
  }

  void rollback() throws SQLException {
    connection.rollback();
  }

  Path path() {
    return path;
  }

  /** Another connection to the same database, with its own transactions (tests). */
  DuckDBConnection duplicate() throws SQLException {
    return connection.duplicate();
  }

  @Override
  public void close() throws SQLException {
    // No Appender is open here (they never outlive a batch), so closing flushes nothing.
    connection.close();
  }

  private static void createParent(Path path) {
    Path parent = path.getParent();
    try {
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create directory " + parent, e);
    }
  }

  private static void closeQuietly(
      @Nullable DuckDBConnection connection, RuntimeException failure) {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } catch (SQLException e) {
      failure.addSuppressed(e);
    }
  }
}
