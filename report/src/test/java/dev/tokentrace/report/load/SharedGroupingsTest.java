package dev.tokentrace.report.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.attribution.HandComputedDataset;
import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.Queries;
import dev.tokentrace.store.query.QueryRows;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grouping made from an earlier one with the same groups (SharedGroupings) has the rows, labels
 * and order its own statement gives, for several shapes of runs, levels, engines and instances:
 * every grouping of attribution_summary and core_metrics as the loader returns it against each
 * grouping's statement run whole (docs/design.md#shared-groupings).
 */
final class SharedGroupingsTest {
  private static final List<String> SUMMARY =
      List.of("all", "run", "concurrency", "run_concurrency", "engine", "instance");

  @TempDir static Path dir;

  private static Database database;

  /** Attributed once (the costly part); each test starts from the attribution as computed. */
  @BeforeAll
  static void load() throws Exception {
    database = Database.open(DatabaseSettings.inMemory());
    HandComputedDataset.load(database, dir);
    new Attributor(database, HandComputedDataset.CLOCK).run(AttributionSettings.defaults(), "t");
    update("CREATE TABLE attributed AS FROM request_attribution");
  }

  @BeforeEach
  void restore() {
    update("DELETE FROM request_attribution");
    update("INSERT INTO request_attribution FROM attributed");
  }

  @AfterAll
  static void close() {
    database.close();
  }

  @Test
  void oneRunTwoLevelsSharesAllButConcurrency() {
    database.jdbi().useHandle(h -> assertSameAsStatements(h, "run", "concurrency"));
  }

  @Test
  void aRunPerLevelWithNamesInTheOtherOrderAndAnotherRunOutsideTheIncludedOnes() {
    // level 1 is run 'b' on instance 'z1', level 8 run 'a' on 'y8', engines NULL at level 8; r8
    // (client only, in core_metrics' population only) gets a third run: core_metrics' run no
    // longer splits as its concurrency, attribution_summary's still does
    update(
        "UPDATE request_attribution SET run_id = CASE WHEN concurrency = 1 THEN 'b' ELSE 'a' END,"
            + " instance = CASE WHEN concurrency = 1 THEN 'z1' ELSE 'y8' END,"
            + " engine = CASE WHEN concurrency = 1 THEN engine END");
    update("UPDATE request_attribution SET run_id = 'c' WHERE request_id = 'r8'");
    database
        .jdbi()
        .useHandle(
            h -> {
              SharedGroupings shared = SharedGroupings.of(h);
              assertThat(
                      shared.sameAs(
                          SharedGroupings.Population.INCLUDED, "instance", SUMMARY.subList(0, 5)))
                  .isEqualTo("run");
              assertThat(
                      shared.sameAs(
                          SharedGroupings.Population.BLACK_BOX,
                          "concurrency",
                          List.of("all", "run")))
                  .isNull();
              assertSameAsStatements(h, "run", "concurrency");
            });
  }

  @Test
  void groupsOfNoLevelOrderedByCodePointsAndStoredAsComputed() {
    // no levels: every group's order is NULL, so group_value decides; U+FF21 sorts before U+1F600
    // by code point (DuckDB's byte order) but after it by UTF-16 unit (String.compareTo)
    update(
        "UPDATE request_attribution SET concurrency = NULL,"
            + " run_id = CASE WHEN request_id IN ('r1', 'r3') THEN 'r-\uD83D\uDE00' ELSE 'r-\uFF21'"
            + " END, instance = CASE WHEN request_id IN ('r1', 'r3') THEN '\uD83D\uDE00'"
            + " ELSE '\uFF21' END");
    database
        .jdbi()
        .useHandle(
            h -> {
              assertSameAsStatements(h, "run", "concurrency");
              assertThat(SharedGroupings.of(h).instancesAreRuns()).isTrue();
              h.begin();
              StoredResults.store(h, "stored");
              assertThat(ReportDataLoader.components(h, StoredResults.of(h, "stored")))
                  .isEqualTo(summaryByStatement(h));
              assertThat(ReportDataLoader.coreMetrics(h, StoredResults.of(h, "stored")))
                  .isEqualTo(metricsByStatement(h));
              h.rollback();
            });
  }

  @Test
  void crossedRunsAndInstancesShareOnlyWhatTheySplitAlike() {
    update(
        "UPDATE request_attribution SET"
            + " run_id = CASE WHEN request_id IN ('r1', 'r2') THEN 'a' ELSE 'b' END,"
            + " instance = CASE WHEN request_id IN ('r1', 'r3') THEN 'i1' ELSE 'i2' END");
    database.jdbi().useHandle(h -> assertSameAsStatements(h, "run"));
  }

  @Test
  void oneServerPerRunSharesTheSeriesPerInstanceInTheInstancesOrder() {
    // every row of level 1 is run 'b' on server 'y', of level 8 run 'a' on 'z': the series per
    // instance are those per run, in the other order
    update(
        "UPDATE request_attribution SET run_id = CASE WHEN concurrency = 1 THEN 'b' ELSE 'a' END,"
            + " instance = CASE WHEN concurrency = 1 THEN 'y' ELSE 'z' END");
    database
        .jdbi()
        .useHandle(
            h -> {
              assertThat(SharedGroupings.of(h).instancesAreRuns()).isTrue();
              assertSameAsStatements(h, "run", "concurrency");
            });
  }

  private void assertSameAsStatements(Handle h, String... coreMetricsGroupingsSeen) {
    QueryRows.registerInstants(h);
    StoredResults none = StoredResults.none();
    ReportDataLoader.concurrency(h, none, "run");
    List<ReportData.ConcurrencyLevel> byInstance =
        ReportDataLoader.concurrency(h, none, "instance");
    assertThat(byInstance)
        .isEqualTo(
            QueryRows.list(
                h,
                Queries.CONCURRENCY_SENSITIVITY,
                ReportData.ConcurrencyLevel.class,
                Map.of("threshold_pct", "50.0", "group_by", "instance")));
    assertThat(ReportDataLoader.components(h)).isEqualTo(summaryByStatement(h));
    List<ReportData.Metric> metrics = ReportDataLoader.coreMetrics(h);
    assertThat(metrics).isEqualTo(metricsByStatement(h));
    assertThat(metrics).extracting(ReportData.Metric::groupBy).contains(coreMetricsGroupingsSeen);
  }

  /** Each grouping by its own statement, all six components at once (the statement's order). */
  private static List<ReportData.Component> summaryByStatement(Handle h) {
    List<ReportData.Component> rows = new ArrayList<>();
    for (String grouping : SUMMARY) {
      rows.addAll(
          QueryRows.list(
              h,
              Queries.ATTRIBUTION_SUMMARY,
              ReportData.Component.class,
              Map.of("group_by", grouping)));
    }
    assertThat(rows).isNotEmpty();
    return rows;
  }

  private static List<ReportData.Metric> metricsByStatement(Handle h) {
    List<ReportData.Metric> rows = new ArrayList<>();
    for (String grouping : List.of("all", "run", "concurrency")) {
      rows.addAll(
          QueryRows.list(
              h, Queries.CORE_METRICS, ReportData.Metric.class, Map.of("group_by", grouping)));
    }
    return rows;
  }

  private static void update(String sql) {
    database.jdbi().useHandle(h -> h.execute(sql));
  }
}
