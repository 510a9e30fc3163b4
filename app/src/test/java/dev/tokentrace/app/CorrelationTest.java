package dev.tokentrace.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The correlate use case: the engine is found through ServiceLoader, only a request that asks for
 * it stores the report's results (the one after-attribution hook), and an incremental attribution
 * gives the rows of a full one (docs/design.md#application-layer).
 */
final class CorrelationTest {
  private static final AttributionSettings RULES = AttributionSettings.defaults();

  @TempDir Path dir;

  @Test
  void theDuckDbEngineIsFoundByName() {
    assertThat(CorrelateEngines.names()).contains(DuckDbCorrelateEngine.NAME);
    assertThat(CorrelateEngines.named("DuckDB")).isInstanceOf(DuckDbCorrelateEngine.class);
    assertThatThrownBy(() -> CorrelateEngines.named("spark"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no correlate engine named 'spark'")
        .hasMessageContaining("duckdb");
  }

  @Test
  void onlyABatchRequestStoresTheReportResults() throws Exception {
    try (Database db = Database.open(DatabaseSettings.inMemory())) {
      HandComputedDataset.load(db, dir);
      Correlation correlation = correlation(db);

      CorrelateOutcome plain =
          correlation.run(new CorrelateRequest(RULES, "test", CorrelateRequest.Mode.FULL, false));
      assertThat(plain.storedResults()).isZero();
      assertThat(correlation.storedResults(plain.result().runId())).isZero();
      assertThat(correlation.current(RULES)).isEqualTo(plain.result().runId());

      CorrelateOutcome batch = correlation.run(CorrelateRequest.batch(RULES, "test"));
      assertThat(batch.storedResults()).isPositive();
      assertThat(correlation.storedResults(batch.result().runId()))
          .isEqualTo(batch.storedResults());
      assertThat(batch.round()).startsWith("attributed every request");
    }
  }

  @Test
  void anIncrementalAttributionGivesTheRowsOfAFullOne() throws Exception {
    try (Database full = Database.open(DatabaseSettings.inMemory());
        Database incremental = Database.open(DatabaseSettings.inMemory())) {
      HandComputedDataset.load(full, dir);
      HandComputedDataset.load(incremental, dir);
      correlation(full).run(new CorrelateRequest(RULES, "test", CorrelateRequest.Mode.FULL, false));
      CorrelateOutcome round =
          correlation(incremental)
              .run(new CorrelateRequest(RULES, "test", CorrelateRequest.Mode.INCREMENTAL, false));
      assertThat(round.storedResults()).isZero();
      assertThat(round.round()).startsWith("attributed every request"); // no digests yet
      assertThat(rows(incremental)).isNotEmpty().isEqualTo(rows(full));
    }
  }

  private static Correlation correlation(Database db) {
    return new Correlation(db, HandComputedDataset.CLOCK, CorrelateEngines.standard());
  }

  private static List<String> rows(Database db) {
    return db.jdbi()
        .withHandle(
            handle ->
                handle
                    .createQuery("SELECT * EXCLUDE (run_id) FROM request_attribution ORDER BY ALL")
                    .mapToMap()
                    .map(Object::toString)
                    .list());
  }
}
