package dev.tokentrace.report.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.SqlCatalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * queries/warmup_effect picks each run's first N requests with a top-N aggregate; this checks it
 * against the plain definition (number the run's non-warm-up requests by start time, NULLs last),
 * including requests without a start time, for every N: the same requests in each phase (counts and
 * medians; which requests are first moves the medians).
 */
final class WarmupEffectQueryTest {
  /** The phase counts by the definition, for :first_n = ?. */
  private static final String DEFINITION =
      """
      WITH ok AS (
          SELECT run_id, warmup, client_ttft_ms, client_e2e_ms,
                 CASE WHEN warmup THEN NULL
                      ELSE row_number() OVER (
                          PARTITION BY run_id, warmup
                          ORDER BY start_ts NULLS LAST, aligned_start_ts NULLS LAST,
                                   client_source_path, client_source_line) END AS steady_order
          FROM request_attribution WHERE status = 'ok'
      )
      SELECT run_id,
             CASE WHEN warmup THEN 'warmup' WHEN steady_order <= :first_n THEN 'first_n'
                  ELSE 'steady' END AS phase,
             count(*) AS requests, quantile_cont(client_ttft_ms, 0.5) AS ftl_p50_ms,
             quantile_cont(client_e2e_ms, 0.5) AS e2e_p50_ms
      FROM ok GROUP BY ALL ORDER BY ALL
      """;

  @TempDir Path dir;

  private Database database;

  @BeforeEach
  void load() throws Exception {
    database = Database.open(DatabaseSettings.inMemory());
    HandComputedDataset.load(database, dir);
    new Attributor(database, HandComputedDataset.CLOCK).run(AttributionSettings.defaults(), "t");
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void picksTheFirstRequestsByStartTimeWithMissingStartsLast() {
    database
        .jdbi()
        .useHandle(
            h ->
                h.execute(
                    "UPDATE request_attribution SET start_ts = NULL"
                        + " WHERE client_source_line % 3 = 0"));
    for (int firstN = 0; firstN <= 12; firstN++) {
      assertThat(phases(firstN)).as("first_n=" + firstN).isEqualTo(definition(firstN));
    }
  }

  private List<Map<String, Object>> phases(int firstN) {
    return database
        .jdbi()
        .withHandle(
            h ->
                h.createQuery(
                        "SELECT run_id, phase, requests, ftl_p50_ms, e2e_p50_ms FROM ("
                            + SqlCatalog.get(ReportQueries.WARMUP_EFFECT)
                            + ") ORDER BY ALL")
                    .bindNull("run_id", java.sql.Types.VARCHAR)
                    .bind("first_n", firstN)
                    .bindNull("threshold_pct", java.sql.Types.DOUBLE)
                    .mapToMap()
                    .list());
  }

  private List<Map<String, Object>> definition(int firstN) {
    return database
        .jdbi()
        .withHandle(h -> h.createQuery(DEFINITION).bind("first_n", firstN).mapToMap().list());
  }
}
