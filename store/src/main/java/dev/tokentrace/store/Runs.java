package dev.tokentrace.store;

import static java.util.Objects.requireNonNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.jspecify.annotations.Nullable;

/**
 * The {@code runs} and {@code run_files} bookkeeping (schema/004_bookkeeping): what each command
 * loaded or computed, with parameters and file hashes, for the report's reproducibility appendix.
 * Works on a caller's connection so the rows join the caller's transaction.
 */
public final class Runs {
  private static final DateTimeFormatter COMPACT =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private Runs() {}

  /**
   * A run id not yet in {@code runs}: {@code <kind>-<yyyyMMddTHHmmssZ>}, with {@code -2}, {@code
   * -3}, ... appended when that second is taken.
   */
  public static String newId(Connection connection, String kind, Instant started)
      throws SQLException {
    String base = kind + "-" + COMPACT.format(started);
    String candidate = base;
    for (int attempt = 2; exists(connection, candidate); attempt++) {
      candidate = base + "-" + attempt;
    }
    return candidate;
  }

  /** True when {@code runId} is already recorded. */
  public static boolean exists(Connection connection, String runId) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("SELECT 1 FROM runs WHERE run_id = ?")) {
      statement.setString(1, runId);
      try (ResultSet result = statement.executeQuery()) {
        return result.next();
      }
    }
  }

  /** Records a run. */
  public static void insert(Connection connection, Run run) throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("INSERT INTO runs VALUES (?, ?, ?, ?, ?)")) {
      statement.setString(1, run.runId());
      statement.setString(2, run.kind());
      statement.setObject(3, LocalDateTime.ofInstant(run.started(), ZoneOffset.UTC));
      statement.setString(4, run.command());
      statement.setString(5, run.params());
      statement.executeUpdate();
    }
  }

  /** Records one file a run read. */
  public static void insertFile(Connection connection, String runId, RunFile file)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement("INSERT INTO run_files VALUES (?, ?, ?, ?, ?, ?)")) {
      statement.setString(1, runId);
      statement.setString(2, file.path());
      statement.setString(3, file.kind());
      statement.setString(4, file.engine());
      statement.setLong(5, file.bytes());
      statement.setString(6, file.sha256());
      statement.executeUpdate();
    }
  }

  /** The run that already loaded a file with this hash and kind, or null. */
  public static @Nullable String runWithFile(Connection connection, String sha256, String kind)
      throws SQLException {
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT min(run_id) FROM run_files WHERE sha256 = ? AND kind = ?")) {
      statement.setString(1, sha256);
      statement.setString(2, kind);
      try (ResultSet result = statement.executeQuery()) {
        return result.next() ? result.getString(1) : null;
      }
    }
  }

  /** One row of {@code runs}; {@code params} is JSON or null. */
  public record Run(
      String runId, String kind, Instant started, String command, @Nullable String params) {
    public Run {
      requireNonNull(runId, "runId is null");
      requireNonNull(kind, "kind is null");
      requireNonNull(started, "started is null");
      requireNonNull(command, "command is null");
    }
  }

  /** One row of {@code run_files}. */
  public record RunFile(
      String path, String kind, @Nullable String engine, long bytes, String sha256) {
    public RunFile {
      requireNonNull(path, "path is null");
      requireNonNull(kind, "kind is null");
      requireNonNull(sha256, "sha256 is null");
      if (bytes < 0) {
        throw new IllegalArgumentException("bytes must be >= 0: " + bytes);
      }
    }
  }
}
