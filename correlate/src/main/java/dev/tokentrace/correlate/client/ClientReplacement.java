package dev.tokentrace.correlate.client;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code clients --replace} removes before loading again, inside the load's transaction: the
 * rows, rejections and file records an earlier run loaded from the same file (by content), or all
 * of a run whose id is taken over. The {@code runs} rows of other runs stay, as their history.
 */
final class ClientReplacement {
  private ClientReplacement() {}

  /** Removes what earlier runs loaded from the file with this hash; returns those runs. */
  static List<String> removeFile(Connection connection, String sha256) throws SQLException {
    List<String> runs = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    try (PreparedStatement select =
        connection.prepareStatement(
            "SELECT run_id, path FROM run_files WHERE sha256 = ?"
                + " AND (kind LIKE 'client:%' OR kind = '"
                + ProxyAccessLog.KIND
                + "')")) {
      select.setString(1, sha256);
      try (ResultSet result = select.executeQuery()) {
        while (result.next()) {
          runs.add(result.getString(1));
          paths.add(result.getString(2));
        }
      }
    }
    for (int i = 0; i < runs.size(); i++) {
      update(
          connection,
          "DELETE FROM client_timing WHERE run_id = ? AND source_path = ?",
          runs.get(i),
          paths.get(i));
      update(
          connection,
          "DELETE FROM proxy_requests WHERE run_id = ? AND source_path = ?",
          runs.get(i),
          paths.get(i));
      update(
          connection,
          "DELETE FROM rejects WHERE engine = 'client' AND source_path = ?",
          paths.get(i));
      update(
          connection, "DELETE FROM run_files WHERE run_id = ? AND sha256 = ?", runs.get(i), sha256);
    }
    return runs;
  }

  /** Removes a client run whose id is taken over: its rows, rejections, files and record. */
  static void removeRun(Connection connection, String runId) throws SQLException {
    List<String> paths = new ArrayList<>();
    try (PreparedStatement select =
        connection.prepareStatement("SELECT path FROM run_files WHERE run_id = ?")) {
      select.setString(1, runId);
      try (ResultSet result = select.executeQuery()) {
        while (result.next()) {
          paths.add(result.getString(1));
        }
      }
    }
    for (String path : paths) {
      update(connection, "DELETE FROM rejects WHERE engine = 'client' AND source_path = ?", path);
    }
    update(connection, "DELETE FROM client_timing WHERE run_id = ?", runId);
    update(connection, "DELETE FROM proxy_requests WHERE run_id = ?", runId);
    update(connection, "DELETE FROM run_files WHERE run_id = ?", runId);
    update(connection, "DELETE FROM runs WHERE run_id = ?", runId);
  }

  private static void update(Connection connection, String sql, String... values)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        statement.setString(i + 1, values[i]);
      }
      statement.executeUpdate();
    }
  }
}
