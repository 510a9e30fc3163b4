package dev.tokentrace.correlate.attribution;

import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.result.ResultIterator;
import org.jspecify.annotations.Nullable;

/**
 * {@code --match heuristic}: pairs client rows whose ID the server never saw with unpaired server
 * requests, one to one. The SQL ({@code attribution/heuristic_candidates}) lists each client row's
 * candidates with a cost (time gap over the window plus token and duration differences), best
 * first; this class takes them in that order and keeps a pair only when neither side is taken yet
 * (greedy assignment: each accepted pair is the cheapest left for both), writing them to {@code
 * request_matches}. Candidates are streamed; memory is the set of rows taken.
 */
final class HeuristicMatcher {
  static final String METHOD = "heuristic";

  private HeuristicMatcher() {}

  /** One candidate pair, as the SQL returns it. */
  record Candidate(
      String runId,
      String clientSourcePath,
      long clientSourceLine,
      String serverRequestKey,
      String serverInstance,
      double cost,
      @Nullable Double timeDiffMs,
      int candidates) {
    String client() {
      return runId + '\u0000' + clientSourcePath + '\u0000' + clientSourceLine;
    }

    /** The server request: a key the client never sent is the engine's own, per instance. */
    String server() {
      return serverInstance + '\u0000' + serverRequestKey;
    }
  }

  /**
   * Writes the pairs into {@code request_matches} on the handle's transaction (which must have run
   * a statement already, so that the Appender joins it; docs/design.md#appender-and-transactions)
   * and returns how many.
   */
  static long match(Handle handle, AttributionSettings settings) throws SQLException {
    MatchSettings match = settings.match();
    Set<String> clients = new HashSet<>();
    Set<String> servers = new HashSet<>();
    long pairs = 0;
    DuckDBConnection connection = handle.getConnection().unwrap(DuckDBConnection.class);
    try (DuckDBAppender appender =
            connection.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "request_matches");
        ResultIterator<Candidate> candidates =
            handle
                .createQuery(SqlCatalog.get(Queries.HEURISTIC_CANDIDATES))
                .bind("window_ms", match.windowMs())
                .bind("output_token_tolerance", match.outputTokenTolerance())
                .bind("prompt_token_tolerance", match.promptTokenTolerance())
                .bind("negative_tolerance_ms", settings.negativeToleranceMs())
                .bindNull("max_candidates", Types.INTEGER)
                .map(
                    (row, context) ->
                        new Candidate(
                            row.getString("run_id"),
                            row.getString("client_source_path"),
                            row.getLong("client_source_line"),
                            row.getString("server_request_key"),
                            row.getString("server_instance"),
                            row.getDouble("cost"),
                            nullableDouble(row, "time_diff_ms"),
                            row.getInt("candidates")))
                .iterator()) {
      Iterator<Candidate> iterator = candidates;
      while (iterator.hasNext()) {
        Candidate candidate = iterator.next();
        if (clients.contains(candidate.client()) || servers.contains(candidate.server())) {
          continue;
        }
        clients.add(candidate.client());
        servers.add(candidate.server());
        append(appender, candidate);
        pairs++;
      }
    }
    return pairs;
  }

  private static void append(DuckDBAppender appender, Candidate candidate) throws SQLException {
    appender
        .beginRow()
        .append(candidate.runId())
        .append(candidate.clientSourcePath())
        .append(candidate.clientSourceLine())
        .append(candidate.serverRequestKey())
        .append(METHOD)
        .append(candidate.cost());
    if (candidate.timeDiffMs() == null) {
      appender.appendNull();
    } else {
      appender.append(candidate.timeDiffMs().doubleValue());
    }
    appender.append(candidate.candidates()).append(candidate.serverInstance()).endRow();
  }

  private static @Nullable Double nullableDouble(java.sql.ResultSet row, String column)
      throws SQLException {
    double value = row.getDouble(column);
    return row.wasNull() ? null : value;
  }
}
