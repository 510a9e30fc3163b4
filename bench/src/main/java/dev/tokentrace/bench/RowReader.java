package dev.tokentrace.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Reads the rows each sink batch committed, through a connection of the sink's own process, and
 * notes when each line's row became queryable. It watches the sink's in-memory batch counter every
 * millisecond and queries only when a batch was committed (rows it has not seen yet, by rowid,
 * which grows with each append): querying a growing table every few milliseconds would take the CPU
 * the pipeline is measured with.
 */
final class RowReader implements SeenRows {
  private static final String NEW_ROWS =
      "SELECT rowid, request_id FROM request_arrived WHERE rowid > ? ORDER BY rowid";

  private final Connection connection;
  private final LongSupplier batches;
  private final Freshness freshness;
  private final Thread thread = new Thread(this::run, "bench-reader");
  private volatile boolean stop;
  private volatile long seen;
  private volatile Exception failure;

  RowReader(Connection connection, LongSupplier batches, Freshness freshness) {
    this.connection = connection;
    this.batches = batches;
    this.freshness = freshness;
  }

  @Override
  public void start() {
    thread.start();
  }

  @Override
  public long seen() {
    return seen;
  }

  @Override
  public @Nullable Exception failure() {
    return failure;
  }

  private void run() {
    long lastRowid = -1;
    try (PreparedStatement query = connection.prepareStatement(NEW_ROWS)) {
      connection.setAutoCommit(true); // each poll reads the latest committed snapshot
      long lastBatches = -1;
      while (!stop) {
        long committed = batches.getAsLong();
        if (committed == lastBatches) {
          Thread.sleep(FreshnessBench.READ_POLL_MS);
          continue;
        }
        lastBatches = committed;
        query.setLong(1, lastRowid);
        try (ResultSet rows = query.executeQuery()) {
          long now = System.nanoTime();
          while (rows.next()) {
            lastRowid = rows.getLong(1);
            String id = rows.getString(2);
            freshness.seen(Long.parseLong(id.substring(id.indexOf('-') + 1)), now);
            seen++;
          }
        }
      }
    } catch (SQLException | RuntimeException e) {
      failure = e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() throws SQLException, InterruptedException {
    stop = true;
    thread.join();
    connection.close();
  }
}
