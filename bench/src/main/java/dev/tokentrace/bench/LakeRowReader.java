package dev.tokentrace.bench;

import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.store.DuckDbFiles;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeFile;
import dev.tokentrace.store.lake.LakePartition;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.table.TableSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Reads the lake as another process would ({@code sql --lake}): every {@value #POLL_MS} ms a new
 * {@link LakeSnapshot} (manifests, then files), and the committed {@code request_arrived} files it
 * has not read yet (a file whose offset range lies within what was read, e.g. a compaction's
 * output, is skipped), through DuckDB's {@code read_parquet}; notes when each line's row was first
 * returned. The sink runs in another process; this one only reads the folder.
 */
final class LakeRowReader implements SeenRows {
  static final int POLL_MS = 100;

  private final Path lake;
  private final Freshness freshness;
  private final Thread thread = new Thread(this::run, "bench-lake-reader");
  private final Map<LakePartition, Long> readUpTo = new HashMap<>();
  private volatile boolean stop;
  private volatile long seen;
  private volatile Exception failure;

  LakeRowReader(Path lake, Freshness freshness) {
    this.lake = lake;
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
    TableSchema<?> table = RequestArrived.TABLE;
    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:", DuckDbFiles.writer("256MB", 1));
        Statement statement = connection.createStatement()) {
      while (!stop) {
        Thread.sleep(POLL_MS);
        if (!Files.exists(lake.resolve("_tokentrace_lake.json"))) {
          continue;
        }
        List<LakeFile> fresh = new ArrayList<>();
        for (LakeFile file : LakeSnapshot.scan(lake).files(table.name())) {
          if (file.end() > readUpTo.getOrDefault(file.partition(), Long.MIN_VALUE)) {
            fresh.add(file);
          }
        }
        if (fresh.isEmpty()) {
          continue;
        }
        try (ResultSet rows =
            statement.executeQuery("SELECT request_id FROM (" + Lake.select(table, fresh) + ")")) {
          long now = System.nanoTime();
          while (rows.next()) {
            String id = rows.getString(1);
            freshness.seen(Long.parseLong(id.substring(id.indexOf('-') + 1)), now);
            seen++;
          }
        }
        for (LakeFile file : fresh) {
          readUpTo.merge(file.partition(), file.end(), Math::max);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failure = e;
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    thread.join();
  }
}
