package dev.tokentrace.store.lake;

import dev.tokentrace.store.DuckDbFiles;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares, per partition and table, the rows each manifest says were committed with the rows in
 * the files a reader uses (from the Parquet footers): a file deleted or replaced by hand shows as
 * missing rows (docs/storage.md#lake-faults-and-recovery).
 */
public final class LakeCheck {
  private LakeCheck() {}

  /**
   * One difference.
   *
   * @param partition the partition
   * @param table the table
   * @param committed rows its manifest counts
   * @param found rows in its files
   */
  public record Problem(LakePartition partition, String table, long committed, long found) {
    public String describe() {
      return partition
          + " "
          + table
          + ": the manifest counts "
          + committed
          + " rows, the files hold "
          + found
          + (found < committed ? " (" + (committed - found) + " missing: a file deleted?)" : "");
    }
  }

  /** Every difference; empty when the lake is whole. */
  public static List<Problem> check(Path lake) {
    LakeSnapshot snapshot = LakeSnapshot.scan(lake.toAbsolutePath());
    Map<LakePartition, Map<String, Long>> found = new TreeMap<>();
    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:", DuckDbFiles.writer("256MB", 1));
        Statement statement = connection.createStatement()) {
      for (Map.Entry<String, List<LakeFile>> table : snapshot.selected().entrySet()) {
        for (LakeFile file : table.getValue()) {
          try (ResultSet rows =
              statement.executeQuery(
                  "SELECT sum(num_rows) FROM parquet_file_metadata("
                      + Lake.literal(file.path().toString())
                      + ")")) {
            rows.next();
            found
                .computeIfAbsent(file.partition(), key -> new TreeMap<>())
                .merge(table.getKey(), rows.getLong(1), Long::sum);
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "lake " + lake + ": cannot read a file's footer: " + e.getMessage(), e);
    }
    List<Problem> problems = new ArrayList<>();
    for (LakeManifest manifest : snapshot.manifests().values()) {
      LakePartition partition = manifest.lakePartition();
      Map<String, Long> inFiles = found.getOrDefault(partition, Map.of());
      for (var table : LakeTables.ALL) {
        long committed = manifest.rows().getOrDefault(table.name(), 0L);
        long rows = inFiles.getOrDefault(table.name(), 0L);
        if (committed != rows) {
          problems.add(new Problem(partition, table.name(), committed, rows));
        }
      }
    }
    return problems;
  }
}
