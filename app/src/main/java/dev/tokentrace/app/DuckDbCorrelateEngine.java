package dev.tokentrace.app;

import dev.tokentrace.correlate.attribution.AttributionResult;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.store.Database;
import java.time.Clock;

/**
 * The default correlate engine: the attribution's SQL run by DuckDB in the analysis file ({@link
 * Attributor}; docs/design.md#attribution).
 */
public final class DuckDbCorrelateEngine implements CorrelateEngine {
  public static final String NAME = "duckdb";

  /** For {@link java.util.ServiceLoader}. */
  public DuckDbCorrelateEngine() {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CorrelateOutcome attribute(
      Database database, Clock clock, CorrelateRequest request, AfterAttribution after) {
    int[] stored = {0};
    Attributor attributor =
        new Attributor(database, clock)
            .afterRecompute((handle, runId) -> stored[0] = after.accept(handle, runId));
    if (request.mode() == CorrelateRequest.Mode.INCREMENTAL) {
      attributor = attributor.incremental();
    }
    AttributionResult result = attributor.run(request.rules(), request.command());
    return new CorrelateOutcome(result, stored[0], attributor.lastRound(), attributor.lastSteps());
  }
}
