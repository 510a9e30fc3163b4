package dev.tokentrace.app;

import dev.tokentrace.store.Database;
import java.time.Clock;

/**
 * What computes an attribution into the workspace's store: DuckDB's SQL by default ({@link
 * DuckDbCorrelateEngine}); another engine (a Spark runner) is found through {@link
 * java.util.ServiceLoader} ({@link CorrelateEngines}) and must give the same rows
 * (docs/design.md#correlate-engines). Whatever it computes with, it leaves {@code
 * request_attribution}, {@code attribution_state} and the other tables of {@code
 * correlate.attribution.Attributor#TABLES_WRITTEN} in {@code database} as the default does, and
 * calls {@code after} in the transaction that writes them when it recomputed every request.
 */
public interface CorrelateEngine {
  /** The engine's name, as a request selects it: lower case, e.g. {@code duckdb}. */
  String name();

  /**
   * Attributes the requests of {@code database}.
   *
   * @throws IllegalStateException naming the step when the engine fails
   */
  CorrelateOutcome attribute(
      Database database, Clock clock, CorrelateRequest request, AfterAttribution after);
}
