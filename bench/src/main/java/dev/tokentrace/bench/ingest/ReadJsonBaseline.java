package dev.tokentrace.bench.ingest;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.duckdb.DuckDBConnection;

/**
 * The baseline stage: loads {@code parse}'s NDJSON into a fresh DuckDB file with the project's
 * schema using DuckDB's {@code read_json} ({@code bench/read_json_baseline.sql}), with the sink's
 * memory limit and thread count. Run as its own JVM: {@code ReadJsonBaseline EVENTS.ndjson DB}.
 */
public final class ReadJsonBaseline {
  private static final String SQL = "bench/read_json_baseline.sql";

  private ReadJsonBaseline() {}

  public static void main(String[] args) throws SQLException {
    Path events = Path.of(args[0]).toAbsolutePath();
    Path db = Path.of(args[1]).toAbsolutePath();
    long started = System.nanoTime();
    try (Database database = Database.open(DatabaseSettings.file(db));
        DuckDBConnection connection = database.newConnection()) {
      for (String statement : statements()) {
        run(connection, statement, events);
      }
      try (Statement checkpoint = connection.createStatement()) {
        checkpoint.execute("CHECKPOINT"); // the sink's file is checkpointed on close as well
      }
    }
    System.err.printf(
        "baseline: loaded %s in %d ms%n", events, (System.nanoTime() - started) / 1_000_000);
  }

  private static void run(DuckDBConnection connection, String statement, Path events)
      throws SQLException {
    if (!statement.contains(":path")) {
      try (Statement plain = connection.createStatement()) {
        plain.execute(statement);
      }
      return;
    }
    try (PreparedStatement prepared =
        connection.prepareStatement(statement.replace(":path", "?"))) {
      prepared.setString(1, events.toString());
      prepared.execute();
    }
  }

  private static String[] statements() {
    try (InputStream input = ReadJsonBaseline.class.getClassLoader().getResourceAsStream(SQL)) {
      if (input == null) {
        throw new IllegalStateException("missing classpath resource " + SQL);
      }
      String text = new String(input.readAllBytes(), StandardCharsets.UTF_8);
      return text.replaceAll("(?m)^--.*$", "").split("(?m)^;\\s*$");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read classpath resource " + SQL, e);
    }
  }
}
