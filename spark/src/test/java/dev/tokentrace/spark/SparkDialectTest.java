package dev.tokentrace.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tokentrace.store.SqlCatalog;
import org.junit.jupiter.api.Test;

/** One test per rewrite of {@link SparkDialect} (docs/scale.md#dialect), no Spark needed. */
class SparkDialectTest {
  @Test
  void aTempTableStatementBecomesOneViewPerCommonTableExpressionThenTheTarget() {
    SparkDialect.Plan plan =
        SparkDialect.plan(
            "-- header\nCREATE OR REPLACE TEMP TABLE keys AS\nWITH a AS (SELECT 1 AS x),\n"
                + "b AS MATERIALIZED (SELECT x FROM a), c AS NOT MATERIALIZED (SELECT x FROM b)\n"
                + "SELECT x FROM c");
    assertThat(plan.steps())
        .extracting(SparkDialect.Step::view)
        .containsExactly("a", "b", "c", "keys");
    assertThat(plan.target()).isEqualTo("keys");
    assertThat(plan.steps().get(1).branches()).containsExactly("SELECT x FROM a");
    assertThat(plan.steps().get(3).branches().get(0).strip()).isEqualTo("SELECT x FROM c");
  }

  @Test
  void theMainSchemaOfAShadowedTableIsDropped() {
    assertThat(SparkDialect.expressions("SELECT c.x FROM main.client_timing c, domain.t"))
        .isEqualTo("SELECT c.x FROM client_timing c, domain.t");
    assertThat(SparkDialect.expressions("SELECT 'main.x' AS s")).isEqualTo("SELECT 'main.x' AS s");
  }

  @Test
  void aStarReplaceBecomesARegularExpressionOfTheOtherColumnsThenTheExpressions() {
    assertThat(
            SparkDialect.expressions(
                "SELECT c.* REPLACE (CASE WHEN a THEN CAST(k AS INT) ELSE k END AS k, 1 AS z)"
                    + " FROM t c"))
        .isEqualTo(
            "SELECT c.`(k|z)?+.+`, CASE WHEN a THEN CAST(k AS INT) ELSE k END AS k, 1 AS z FROM t c");
    assertThatThrownBy(() -> SparkDialect.expressions("SELECT c.* REPLACE (k) FROM t c"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("without AS name");
  }

  @Test
  void aQueryThatReturnsRowsIsTranslatedWhole() {
    assertThat(SparkDialect.query("-- c\nSELECT EXISTS (FROM main.t) AS needed;"))
        .isEqualTo("SELECT EXISTS (SELECT * FROM t) AS needed");
  }

  @Test
  void anInsertByNameWritesItsTable() {
    SparkDialect.Plan plan = SparkDialect.plan("INSERT INTO clock_offsets BY NAME SELECT 1 AS n;");
    assertThat(plan.target()).isEqualTo("clock_offsets");
    assertThat(plan.steps()).hasSize(1);
  }

  @Test
  void otherStatementsAreRefused() {
    assertThatThrownBy(() -> SparkDialect.plan("DELETE FROM request_attribution"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("DELETE FROM");
  }

  @Test
  void unionAllByNameIsSplitIntoBranchesTheRunnerUnionsByName() {
    SparkDialect.Plan plan =
        SparkDialect.plan(
            "CREATE OR REPLACE TEMP TABLE t AS WITH u AS (SELECT 1 AS a UNION ALL BY NAME"
                + " SELECT (SELECT 2) AS b) SELECT * FROM u");
    assertThat(plan.steps().get(0).branches())
        .containsExactly("SELECT 1 AS a", "SELECT (SELECT 2) AS b");
  }

  @Test
  void commentsAreRemovedButNotInsideStrings() {
    assertThat(SparkDialect.stripComments("SELECT '--x' AS a -- note\nFROM t"))
        .isEqualTo("SELECT '--x' AS a \nFROM t");
  }

  @Test
  void fromFirstGetsItsSelect() {
    assertThat(SparkDialect.fromFirst("JOIN (FROM keys WHERE n > 1) k"))
        .isEqualTo("JOIN (SELECT * FROM keys WHERE n > 1) k");
  }

  @Test
  void decimalLiteralsBecomeDoubles() {
    assertThat(SparkDialect.expressions("x / 1000.0 + 1.4826 * y + 2 + t.c1"))
        .isEqualTo("x / 1000.0D + 1.4826D * y + 2 + t.c1");
    assertThat(SparkDialect.expressions("'1.5' AS s")).isEqualTo("'1.5' AS s");
  }

  @Test
  void varcharBecomesString() {
    assertThat(SparkDialect.varchar("CAST(NULL AS VARCHAR) AS a"))
        .isEqualTo("CAST(NULL AS STRING) AS a");
  }

  @Test
  void epochUsBecomesUnixMicros() {
    assertThat(SparkDialect.epochUs("epoch_us(t.arrival_ts)"))
        .isEqualTo("unix_micros(t.arrival_ts)");
  }

  @Test
  void argMaxBecomesMaxBy() {
    assertThat(SparkDialect.argMax("arg_max(offset_ms, used_pairs)"))
        .isEqualTo("max_by(offset_ms, used_pairs)");
  }

  @Test
  void medianAndMadUseDuckDbsInterpolationOverTheGroupsValues() {
    assertThat(SparkDialect.quantiles("median(d_ms) AS m, 1.4826 * mad(abs(d_ms)) AS s"))
        .isEqualTo(
            "tt_median(collect_list(d_ms)) AS m, 1.4826 * tt_mad(collect_list(abs(d_ms))) AS s");
  }

  @Test
  void quantilesInterpolateAsDuckDbDoes() {
    assertThat(Quantiles.median(new double[] {1, 2, 3, 4})).isEqualTo(2.5);
    // position (4 - 1) * 0.5 = 1.5: lo + (hi - lo) * 0.5, DuckDB's order of operations
    assertThat(Quantiles.median(new double[] {0.1, 0.7, 1.0, 2.5}))
        .isEqualTo(0.7 + (1.0 - 0.7) * 0.5);
    // median 3; deviations 2, 1, 0, 1, 7 -> median 1
    assertThat(Quantiles.mad(new double[] {1, 2, 3, 4, 10})).isEqualTo(1.0);
    assertThat(Quantiles.median(new double[0])).isNull();
    assertThat(Quantiles.mad(new double[0])).isNull();
  }

  @Test
  void toMicrosecondsBecomesAnExactIntervalProduct() {
    assertThat(SparkDialect.toMicroseconds("ts + to_microseconds(CAST(round(x) AS BIGINT))"))
        .isEqualTo("ts + ((CAST(round(x) AS BIGINT)) * INTERVAL '0.000001' SECOND)");
  }

  @Test
  void makeTimestampOfMicrosecondsBecomesTimestampMicros() {
    assertThat(SparkDialect.makeTimestamp("make_timestamp(CAST(v AS BIGINT))"))
        .isEqualTo("timestamp_micros(CAST(v AS BIGINT))");
    assertThatThrownBy(() -> SparkDialect.makeTimestamp("make_timestamp(2026, 1, 1, 0, 0, 0)"))
        .hasMessageContaining("several arguments");
  }

  @Test
  void orderByItemsSortNullsLastAsDuckDbDoes() {
    assertThat(
            SparkDialect.nullsLast(
                "row_number() OVER (PARTITION BY a ORDER BY b NULLS FIRST, c DESC, f(d, e)) = 1"))
        .isEqualTo(
            "row_number() OVER (PARTITION BY a ORDER BY b NULLS FIRST, c DESC NULLS LAST,"
                + " f(d, e) NULLS LAST) = 1");
  }

  @Test
  void theAttributionStatementsTranslate() {
    for (String name : SparkAttribution.STATEMENTS) {
      SparkDialect.Plan plan = SparkDialect.plan(SqlCatalog.get(name));
      assertThat(plan.steps()).as(name).isNotEmpty();
      for (SparkDialect.Step step : plan.steps()) {
        for (String branch : step.branches()) {
          assertThat(branch)
              .as(name + " " + step.view())
              .doesNotContainIgnoringCase("epoch_us(")
              .doesNotContainIgnoringCase("BY NAME")
              .doesNotContainIgnoringCase("MATERIALIZED")
              .doesNotContainIgnoringCase("arg_max(")
              .doesNotContainIgnoringCase("to_microseconds(");
        }
      }
    }
    assertThat(SparkAttribution.STATEMENTS).hasSize(4);
  }
}
