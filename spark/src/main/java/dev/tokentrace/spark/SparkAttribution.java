package dev.tokentrace.spark;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.store.Queries;
import dev.tokentrace.store.SqlCatalog;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The attribution on Spark SQL (docs/scale.md): the statements of {@code sql/attribution/} that
 * batch {@code correlate} runs with {@code --match id} (pd_halves, request_keys, clock_offsets,
 * per_request, and proxy_keys first when the lake maps client IDs), read from the same files, put
 * into Spark's dialect by {@link SparkDialect}, over the views {@link SparkLake#register} made.
 * Heuristic matching ({@code --match heuristic}) is Java and is not run here: {@code
 * request_matches} is empty, as without it.
 */
public final class SparkAttribution {
  /** The statements, in the order {@code Attributor} runs them. */
  public static final List<String> STATEMENTS =
      List.of(Queries.PD_HALVES, Queries.REQUEST_KEYS, Queries.CLOCK_OFFSETS, Queries.PER_REQUEST);

  /** Lets {@link SparkDialect#starReplace}'s quoted regular expressions name columns. */
  private static final String REGEX_COLUMNS = "spark.sql.parser.quotedRegexColumnNames";

  private SparkAttribution() {}

  /**
   * Whether the lake maps client IDs to the servers' keys (a proxy access log's {@code
   * proxy_request} rows, or SGLang P/D records keyed by their bootstrap room), so that {@link #run}
   * shadows {@code client_timing} with {@code attribution/proxy_keys} first, as {@code Attributor}
   * does (docs/formats/pd.md#proxy-access-log): the answer of {@code attribution/proxy_keys_needed}
   * on Spark.
   */
  public static boolean mapsClientIds(SparkSession spark) {
    requireNonNull(spark, "spark is null");
    Row row = spark.sql(SparkDialect.query(SqlCatalog.get(Queries.PROXY_KEYS_NEEDED))).first();
    return !row.isNullAt(0) && row.getBoolean(0);
  }

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
    List<String> statements = new ArrayList<>();
    if (mapsClientIds(spark)) {
      statements.add(Queries.PROXY_KEYS); // before the key table, as in Attributor
    }
    statements.addAll(STATEMENTS);
    Dataset<Row> last = null;
    for (String statement : statements) {
      SparkDialect.Plan plan = SparkDialect.plan(SqlCatalog.get(statement));
      for (SparkDialect.Step step : plan.steps()) {
        last = view(spark, step, plan.target(), parameters);
      }
      // the statement's table is read by the next ones: computed once, not once per reader
      last = last.localCheckpoint();
      last.createOrReplaceTempView(plan.target());
    }
    return last;
  }

  private static Dataset<Row> view(
      SparkSession spark, SparkDialect.Step step, String target, Map<String, Object> parameters) {
    // a statement's target may shadow an input, as proxy_keys' client_timing does (its query read
    // the input before the view is replaced); a common table expression may not
    if (SparkLake.INPUTS.contains(step.view()) && !step.view().equals(target)) {
      throw new IllegalStateException(
          "a common table expression named like an input table would hide it: " + step.view());
    }
    Dataset<Row> rows = null;
    spark.conf().set(REGEX_COLUMNS, "true");
    try {
      for (String branch : step.branches()) {
        Dataset<Row> part = spark.sql(branch, parameters);
        rows = rows == null ? part : rows.unionByName(part, true);
      }
    } finally {
      spark.conf().unset(REGEX_COLUMNS);
    }
    rows.createOrReplaceTempView(step.view());
    return rows;
  }
}
