package dev.tokentrace.store.query;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Database;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import java.util.Map;
import java.util.Optional;

/**
 * Why a library query that reads the attribution printed no row: no client rows, no server records,
 * no attribution yet, or nothing included; each with the command that fills the gap
 * (docs/reports.md#why-a-query-returns-no-rows). Counts come from {@code
 * sql/diagnostics/empty_result.sql}.
 */
public final class EmptyResult {
  private final Database database;

  public EmptyResult(Database database) {
    this.database = requireNonNull(database, "database is null");
  }

  /**
   * The reason and the next command for query {@code name} (as {@code sql} takes it), or empty when
   * the query does not read the attribution or the inputs are all there (its filters left nothing).
   *
   * @param target how the next command names the store, e.g. {@code --db run.duckdb}
   */
  public Optional<String> why(String name, String target) {
    String resolved = NamedQueryRunner.resolve(name);
    if (!SqlCatalog.get(resolved).contains("request_attribution")) {
      return Optional.empty();
    }
    Map<String, Object> counts =
        database
            .jdbi()
            .withHandle(
                handle ->
                    handle.createQuery(SqlCatalog.get(Queries.EMPTY_RESULT)).mapToMap().one());
    return reason(
        number(counts, "client_rows"),
        number(counts, "server_records") + number(counts, "server_arrivals"),
        number(counts, "attribution_runs"),
        number(counts, "attributed"),
        number(counts, "included"),
        target);
  }

  static Optional<String> reason(
      long clientRows,
      long serverRows,
      long attributionRuns,
      long attributed,
      long included,
      String target) {
    if (clientRows == 0) {
      return Optional.of(
          "no rows because the file holds no client rows: load the benchmark client's file or"
              + " folder first: tokentrace clients "
              + target
              + " FILE|DIR, then tokentrace correlate "
              + target);
    }
    if (serverRows == 0) {
      return Optional.of(
          "no rows because the file holds no server records: load the engine's logs first:"
              + " tokentrace ingest "
              + target
              + " LOG..., then tokentrace correlate "
              + target);
    }
    if (attributionRuns == 0 && attributed == 0) {
      return Optional.of(
          "no rows because nothing is attributed yet ("
              + clientRows
              + " client rows, "
              + serverRows
              + " server rows): run tokentrace correlate "
              + target);
    }
    if (attributed > 0 && included == 0) {
      return Optional.of(
          "no rows because none of the "
              + attributed
              + " attributed requests is included (unpaired, suspect or warm-up):"
              + " tokentrace sql "
              + target
              + " unmatched_requests says why");
    }
    return Optional.empty();
  }

  private static long number(Map<String, Object> row, String column) {
    Object value = row.get(column);
    return value instanceof Number ? ((Number) value).longValue() : 0;
  }
}
