package dev.tokentrace.spark;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The attribution on Spark SQL (docs/scale.md): the statements of {@code sql/attribution/} that
 * batch {@code correlate} runs with {@code --match id} (pd_halves, request_keys, clock_offsets,
 * per_request), read from the same files, put into Spark's dialect by {@link SparkDialect}, over
 * the views {@link SparkLake#register} made. Heuristic matching ({@code --match heuristic}) is Java
 * and is not run here: {@code request_matches} is empty, as without it.
 */
public final class SparkAttribution {
  /** The statements, in the order {@code Attributor} runs them. */
  public static final List<String> STATEMENTS =
      List.of(Queries.PD_HALVES, Queries.REQUEST_KEYS, Queries.CLOCK_OFFSETS, Queries.PER_REQUEST);

  private SparkAttribution() {}

  /**
   * Runs the statements with the SQL's documented defaults for every parameter (the rules of {@code
   * correlate} without options) and returns {@code request_attribution}; {@code clock_offsets} and
   * {@code attribution_keys} stay registered as views.
   */
  public static Dataset<Row> run(SparkSession spark) {
    requireNonNull(spark, "spark is null");
    Quantiles.register(spark);
    Map<String, Object> parameters = new HashMap<>();
    for (String name :
        List.of(
            "outlier_mads",
            "min_window_ms",
            "zone_tolerance_ms",
            "max_offset_ms",
            "max_spread_ms",
            "negative_tolerance_ms",
            "negative_tolerance_pct",
            "warmup_first_n",
            "window_ms")) {
      parameters.put(name, null); // NULL: the SQL's own default (coalesce in its settings CTE)
    }
    Dataset<Row> last = null;
    for (String statement : STATEMENTS) {
      SparkDialect.Plan plan = SparkDialect.plan(SqlCatalog.get(statement));
      for (SparkDialect.Step step : plan.steps()) {
        last = view(spark, step, parameters);
      }
      // the statement's table is read by the next ones: computed once, not once per reader
      last = last.localCheckpoint();
      last.createOrReplaceTempView(plan.target());
    }
    return last;
  }

  private static Dataset<Row> view(
      SparkSession spark, SparkDialect.Step step, Map<String, Object> parameters) {
    if (SparkLake.INPUTS.contains(step.view())) {
      throw new IllegalStateException(
          "a common table expression named like an input table would hide it: " + step.view());
    }
    Dataset<Row> rows = null;
    for (String branch : step.branches()) {
      Dataset<Row> part = spark.sql(branch, parameters);
      rows = rows == null ? part : rows.unionByName(part, true);
    }
    rows.createOrReplaceTempView(step.view());
    return rows;
  }
}
