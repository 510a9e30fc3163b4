package dev.tokentrace.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.load.ReportDataLoader;
import dev.tokentrace.report.load.StoredResults;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.query.QueryRows;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ReportServiceTest {
  @TempDir Path dir;

  private Database database;
  private Attributor attributor;
  private ReportService reports;

  @BeforeEach
  void load() throws Exception {
    database = Database.open(DatabaseSettings.inMemory());
    HandComputedDataset.load(database, dir);
    attributor = new Attributor(database, HandComputedDataset.CLOCK);
    reports = new ReportService(database, HandComputedDataset.CLOCK);
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void nothingIsCurrentBeforeTheFirstAttribution() {
    assertThat(attributor.current(AttributionSettings.defaults())).isNull();
  }

  @Test
  void reusesTheAttributionOfCorrelateWithTheSameSettingsAndInputs() {
    String runId = attributor.run(AttributionSettings.defaults(), "tokentrace correlate").runId();

    assertThat(attributor.current(AttributionSettings.defaults())).isEqualTo(runId);
    ReportData data = reports.build(AttributionSettings.defaults(), "tokentrace report");

    assertThat(attributionRuns()).isEqualTo(1);
    assertThat(data.quality().clientRows()).isEqualTo(12);
    assertThat(data.quality().matchedRows()).isEqualTo(6);
  }

  @Test
  void keepsTheDataQualityCountsWithTheAttributionForAReportThatReusesIt() {
    String runId = attributor.run(AttributionSettings.defaults(), "tokentrace correlate").runId();

    assertThat(attributor.storedQuality(runId)).isEqualTo(attributor.dataQuality());
    assertThat(reports.build(AttributionSettings.defaults(), "tokentrace report").quality())
        .isEqualTo(attributor.dataQuality());
  }

  @Test
  void recomputesWhenTheRulesDiffer() {
    attributor.run(AttributionSettings.defaults(), "tokentrace correlate");
    AttributionSettings warmup = new AttributionSettings(5.0, 1.0, 1);

    assertThat(attributor.current(warmup)).isNull();
    reports.build(warmup, "tokentrace report --warmup-first 1");

    assertThat(attributionRuns()).isEqualTo(2);
    assertThat(attributor.current(warmup)).isNotNull();
    assertThat(attributor.current(AttributionSettings.defaults())).isNull();
  }

  @Test
  void recomputesWhenAnInputTableGrew() {
    attributor.run(AttributionSettings.defaults(), "tokentrace correlate");
    database
        .jdbi()
        .useHandle(
            h -> h.execute("INSERT INTO request_timing SELECT * FROM request_timing LIMIT 1"));

    assertThat(attributor.current(AttributionSettings.defaults())).isNull();
    reports.build(AttributionSettings.defaults(), "tokentrace report");

    assertThat(attributionRuns()).isEqualTo(2);
  }

  @Test
  void recomputesWhenRowsWereReplacedByAsManyOthers() {
    attributor.run(AttributionSettings.defaults(), "tokentrace correlate");
    database
        .jdbi()
        .useHandle(
            h -> {
              h.execute("CREATE TEMP TABLE one AS SELECT * FROM client_timing LIMIT 1");
              h.execute(
                  "DELETE FROM client_timing WHERE rowid = (SELECT min(rowid) FROM client_timing)");
              h.execute("INSERT INTO client_timing SELECT * FROM one");
            });

    assertThat(attributor.current(AttributionSettings.defaults())).isNull();
  }

  @Test
  void theSplitPercentileStatementsGiveTheRowsOfTheWholeQueriesInTheirOrder() {
    attributor.run(AttributionSettings.defaults(), "tokentrace correlate");
    database
        .jdbi()
        .useHandle(
            h -> {
              assertThat(ReportDataLoader.components(h))
                  .hasSizeGreaterThan(6)
                  .containsExactlyElementsOf(
                      QueryRows.list(h, Queries.ATTRIBUTION_SUMMARY, ReportData.Component.class));
              assertThat(ReportDataLoader.coreMetrics(h))
                  .isNotEmpty()
                  .containsExactlyElementsOf(
                      QueryRows.list(h, Queries.CORE_METRICS, ReportData.Metric.class));
            });
  }

  @Test
  void aReportFromTheResultsStoredWithTheAttributionEqualsOneComputedFromIt() {
    int[] stored = {0};
    String runId =
        attributor
            .afterRecompute((h, id) -> stored[0] = StoredResults.store(h, id))
            .run(AttributionSettings.defaults(), "tokentrace correlate")
            .runId();
    // core_metrics 3 groupings, attribution_summary 6 groupings x 2 halves, concurrency per run
    // and per instance, six evidence queries; the runs, throughput, slowest requests, timeline,
    // request table, client load and matrix
    assertThat(stored[0]).isEqualTo(30);

    ReportData fromStored = reports.build(AttributionSettings.defaults(), "tokentrace report");
    ReportData computed =
        ReportDataLoader.load(
            database,
            HandComputedDataset.CLOCK.instant(),
            AttributionSettings.defaults(),
            "tokentrace report",
            attributor.storedQuality(runId),
            null);

    assertThat(fromStored).isEqualTo(computed);
    assertThat(fromStored.evidence().batchVsConcurrency()).isNotEmpty(); // Instants round-trip too
    assertThat(fromStored.coreMetrics()).isNotEmpty();
    assertThat(fromStored.evidence().runs()).isNotEmpty();
    assertThat(fromStored.evidence().throughput()).isNotEmpty();
    assertThat(fromStored.evidence().slowest()).isNotEmpty();
    assertThat(fromStored.evidence().requests()).isNotEmpty();
    assertThat(fromStored.evidence().load()).isNotEmpty();
  }

  @Test
  void readsTheStoredResultsOnlyWhileTheirAttributionIsCurrent() {
    String runId =
        attributor
            .afterRecompute(StoredResults::store)
            .run(AttributionSettings.defaults(), "tokentrace correlate")
            .runId();
    database
        .jdbi()
        .useHandle(
            h ->
                h.execute(
                    "UPDATE attribution_results SET rows_json = '[]'"
                        + " WHERE query = 'attribution/core_metrics'"));

    // current: the (here emptied) stored rows are what the report shows
    assertThat(reports.build(AttributionSettings.defaults(), "tokentrace report").coreMetrics())
        .isEmpty();
    // other rules: recomputed, the stored results of the older run are dropped and not read
    AttributionSettings warmup = new AttributionSettings(5.0, 1.0, 1);
    assertThat(reports.build(warmup, "tokentrace report --warmup-first 1").coreMetrics())
        .isNotEmpty();
    assertThat(attributor.current(warmup)).isNotEqualTo(runId);
    long stored =
        database
            .jdbi()
            .withHandle(
                h ->
                    h.createQuery("SELECT count(*) FROM attribution_results")
                        .mapTo(Long.class)
                        .one());
    assertThat(stored).isZero();
  }

  private long attributionRuns() {
    return database
        .jdbi()
        .withHandle(
            h ->
                h.createQuery("SELECT count(*) FROM runs WHERE kind = :kind")
                    .bind("kind", Attributor.RUN_KIND)
                    .mapTo(Long.class)
                    .one());
  }
}
