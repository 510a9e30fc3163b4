package dev.tokentrace.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.correlate.live.LakeStoredResults;
import dev.tokentrace.event.Engine;
import dev.tokentrace.report.load.StoredResults;
import dev.tokentrace.simulator.pd.PdFiles;
import dev.tokentrace.simulator.pd.PdScenario;
import dev.tokentrace.simulator.scenario.Scenario;
import dev.tokentrace.simulator.scenario.Scenarios;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeTableVersions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every simulator scenario in one lake, through DuckDB ({@code correlate --lake}: the lake copied
 * into a file, {@code Attributor}) and through Spark ({@code spark-correlate}'s entry point,
 * written back as the lake's version): identical {@code request_attribution} rows (EXCEPT ALL both
 * ways, in DuckDB, reading Spark's version file) and, per scenario, equal percentiles of every
 * component (docs/scale.md#equality). One lake and one Spark session for all scenarios: a session's
 * start and its code generation are paid once, not once per scenario.
 */
class SparkAttributionIT {
  private static final List<String> COMPONENTS =
      List.of(
          "network_ms",
          "network_ttft_ms",
          "client_queue_ms",
          "queue_ms",
          "prefill_ms",
          "decode_ms",
          "client_e2e_ms",
          "client_ttft_ms",
          "clock_offset_ms");
  private static final double[] QUANTILES = {0.5, 0.9, 0.99};

  /** Every simulator scenario (the presets of {@link Scenarios}). */
  private static final List<String> SCENARIOS =
      Scenarios.all().stream().map(Scenario::name).toList();

  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    spark = SparkCorrelate.session("local[2]", 2);
  }

  @AfterAll
  static void stop() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void sparkAttributesEveryScenarioAsDuckDbDoes() throws Exception {
    Path lake = ScenarioLake.write(dir, SCENARIOS, 41, null);

    Path duck = dir.resolve("duck.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(duck))) {
      LakeEvents.copy(lake, db);
      new Attributor(db, ScenarioLake.CLOCK).run(AttributionSettings.defaults(), "test");
    }

    // the entry point of `tokentrace spark-correlate` and spark-submit, on this test's session
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new SparkCorrelate());
    command.setErr(new PrintWriter(err, true));
    assertThat(command.execute("--lake", lake.toString())).as(err.toString()).isZero();
    LakeTableVersions.Version written = LakeTableVersions.current(lake, "request_attribution");
    assertThat(written).isNotNull();
    assertThat(err.toString())
        .contains(
            "request_attribution written to the lake "
                + lake
                + " as version 1 ("
                + written.rows()
                + " rows)");
    Path version = written.path(lake);

    try (Database db = Database.open(DatabaseSettings.inMemory());
        Connection connection = db.newConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + duck + "' AS duck (READ_ONLY)");
      statement.execute("CREATE VIEW spark_rows AS SELECT * FROM read_parquet('" + version + "')");
      long duckRows = count(statement, "SELECT count(*) FROM duck.request_attribution");
      assertThat(written.rows()).isEqualTo(duckRows);
      // every scenario has rows of its own that are counted, and no request key is shared by two
      // scenarios (each has its own seed), so none disturbs another's attribution
      List<String> runs = new ArrayList<>();
      try (ResultSet result =
          statement.executeQuery(
              "SELECT run_id FROM duck.request_attribution GROUP BY run_id"
                  + " HAVING count(*) FILTER (WHERE included) > 0")) {
        while (result.next()) {
          runs.add(result.getString(1));
        }
      }
      assertThat(runs).containsExactlyInAnyOrderElementsOf(SCENARIOS);
      assertThat(
              count(
                  statement,
                  "SELECT count(*) FROM (SELECT request_key FROM duck.request_attribution"
                      + " GROUP BY request_key HAVING count(DISTINCT run_id) > 1)"))
          .as("request keys shared by two scenarios")
          .isZero();
      assertSameRows(statement);

      // every component's percentiles per scenario over each engine's own rows, in one aggregate
      // on each side, each engine's own function: DuckDB's quantile_cont and Spark's percentile
      // interpolate with different arithmetic and differ in the last bit now and then (retries'
      // clock_offset_ms P90: DuckDB 1.5084999999999997, Spark 1.5085): equal within four units in
      // the last place. The percentiles a report shows are DuckDB's over Spark's rows (the stored
      // results, below): those are equal to the last digit (docs/scale.md#equality)
      List<String> duckItems = new ArrayList<>();
      List<String> sparkItems = new ArrayList<>();
      for (String column : COMPONENTS) {
        duckItems.add("quantile_cont(" + column + ", [0.5, 0.9, 0.99])");
        sparkItems.add("percentile(" + column + ", array(0.5D, 0.9D, 0.99D))");
      }
      Map<String, Row> sparkByRun = new HashMap<>();
      for (Row row :
          spark
              .sql(
                  "SELECT run_id, "
                      + String.join(", ", sparkItems)
                      + " FROM request_attribution WHERE included GROUP BY run_id")
              .collectAsList()) {
        sparkByRun.put(row.getString(0), row);
      }
      assertThat(sparkByRun.keySet()).containsExactlyInAnyOrderElementsOf(SCENARIOS);
      int compared = 0;
      try (ResultSet expected =
          statement.executeQuery(
              "SELECT run_id, "
                  + String.join(", ", duckItems)
                  + " FROM duck.request_attribution WHERE included GROUP BY run_id")) {
        while (expected.next()) {
          String run = expected.getString(1);
          Row actual = sparkByRun.get(run);
          for (int i = 0; i < COMPONENTS.size(); i++) {
            java.sql.Array duckArray = expected.getArray(i + 2); // NULL: no value in any row
            Object[] duckValues = duckArray == null ? null : (Object[]) duckArray.getArray();
            List<Double> sparkValues = actual.isNullAt(i + 1) ? null : actual.getList(i + 1);
            for (int q = 0; q < QUANTILES.length; q++) {
              Double duckValue = duckValues == null ? null : (Double) duckValues[q];
              Double sparkValue = sparkValues == null ? null : sparkValues.get(q);
              if (duckValue == null || sparkValue == null) {
                assertThat(sparkValue)
                    .as("%s: percentile(%s, %s)", run, COMPONENTS.get(i), QUANTILES[q])
                    .isEqualTo(duckValue);
              } else {
                assertThat(sparkValue)
                    .as("%s: percentile(%s, %s)", run, COMPONENTS.get(i), QUANTILES[q])
                    .isCloseTo(duckValue, within(4 * Math.ulp(duckValue)));
              }
              compared++;
            }
          }
        }
      }
      assertThat(compared).isEqualTo(SCENARIOS.size() * COMPONENTS.size() * QUANTILES.length);
    }
    // the readers of the lake see Spark's version
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement()) {
      assertThat(count(statement, "SELECT count(*) FROM request_attribution"))
          .isEqualTo(written.rows());
    }
    storedResultsAreAdoptedAndEqualDuckDbs(lake, duck, err.toString());
  }

  /**
   * P/D lakes whose client IDs only join through a map (docs/formats/pd.md#proxy-access-log): vLLM
   * behind a proxy that sends the servers IDs of its own (its access log's {@code proxy_request}
   * rows map them), and SGLang whose client set rids of 32 hex digits, as SGLang's own are: the
   * halves are keyed by the router's {@code bootstrap_room} and reach the client's row through the
   * rid both servers logged (docs/formats/pd.md#sglang-request-ids). Spark applies the map as
   * {@code correlate} does (attribution/proxy_keys through {@link SparkDialect}): identical rows
   * both ways, and every client request joined to both of its halves.
   */
  @Test
  void sparkMapsClientIdsOfPdLakesAsDuckDbDoes() throws Exception {
    Path vllm = dir.resolve("sim").resolve("vllm-proxy");
    Path sglang = dir.resolve("sim").resolve("sglang-hex-rid");
    int vllmRequests =
        PdFiles.write(PdScenario.named("decode-saturated"), vllm, "vllm", true, false, false);
    int sglangRequests =
        PdFiles.write(PdScenario.named("transfer-bound"), sglang, "sglang", false, false, false);
    hexRids(sglang);
    Path lake =
        ScenarioLake.writePd(
            dir,
            List.of(
                new ScenarioLake.PdSimulation("vllm-proxy", Engine.VLLM, vllm),
                new ScenarioLake.PdSimulation("sglang-hex-rid", Engine.SGLANG, sglang)));

    Path duck = dir.resolve("duck.duckdb");
    try (Database db = Database.open(DatabaseSettings.file(duck))) {
      LakeEvents.copy(lake, db);
      new Attributor(db, ScenarioLake.CLOCK).run(AttributionSettings.defaults(), "test");
    }
    StringWriter err = new StringWriter();
    CommandLine command = new CommandLine(new SparkCorrelate());
    command.setErr(new PrintWriter(err, true));
    assertThat(command.execute("--lake", lake.toString())).as(err.toString()).isZero();
    assertThat(err.toString()).contains("client IDs are mapped to the IDs the servers logged");
    Path version = LakeTableVersions.current(lake, "request_attribution").path(lake);

    try (Database db = Database.open(DatabaseSettings.inMemory());
        Connection connection = db.newConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("ATTACH '" + duck + "' AS duck (READ_ONLY)");
      statement.execute("CREATE VIEW spark_rows AS SELECT * FROM read_parquet('" + version + "')");
      // the maps did their work: every request of each run has both halves and its transfer
      for (Object[] run :
          new Object[][] {{"vllm-proxy", vllmRequests}, {"sglang-hex-rid", sglangRequests}}) {
        assertThat(
                count(
                    statement,
                    "SELECT count(*) FROM spark_rows WHERE run_id = '"
                        + run[0]
                        + "' AND decode_instance IS NOT NULL AND kv_transfer_ms IS NOT NULL"))
            .as("%s: requests joined to both halves on Spark", run[0])
            .isEqualTo(((Integer) run[1]).longValue());
      }
      assertSameRows(statement);
    }
  }

  /**
   * Gives every request of a simulated SGLang P/D run ({@code pd-NAME-00042}) a rid of 32 hex
   * digits in the client file and both servers' logs, as a client that sends {@code uuid4().hex}
   * rids does.
   */
  private static void hexRids(Path sim) throws java.io.IOException {
    Pattern id = Pattern.compile("pd-[a-z-]+-(\\d{5})\\b");
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(sim)) {
      for (Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
        String text = java.nio.file.Files.readString(file);
        String hex =
            id.matcher(text)
                .replaceAll(m -> String.format("%032x", 0xabc000L + Long.parseLong(m.group(1))));
        java.nio.file.Files.writeString(file, hex);
      }
    }
  }

  /**
   * What {@code report --lake} does with the lake (docs/scale.md#stored-results): its copy of the
   * lake adopts the attribution Spark stored with that snapshot, which is then current (reused, not
   * recomputed), and the results stored with it equal those DuckDB computes from its own
   * attribution of the same lake.
   */
  private void storedResultsAreAdoptedAndEqualDuckDbs(Path lake, Path duck, String err)
      throws Exception {
    LakeStoredResults.State state;
    try (Database db = Database.open(DatabaseSettings.inMemory());
        Connection connection = db.newConnection()) {
      state = LakeStoredResults.current(lake, connection);
    }
    assertThat(state).as("the lake's stored attribution").isNotNull();
    Path adopted = dir.resolve("adopted.duckdb");
    Map<String, String> sparkResults;
    try (Database db = Database.open(DatabaseSettings.file(adopted))) {
      LakeEvents.copy(lake, db);
      assertThat(new Attributor(db, ScenarioLake.CLOCK).current(AttributionSettings.defaults()))
          .isEqualTo(state.runId());
      int stored = StoredResults.count(db, state.runId());
      assertThat(stored).isPositive();
      assertThat(err).contains(stored + " report result(s) stored with it as run " + state.runId());
      sparkResults = results(db, state.runId());
    }
    Map<String, String> duckResults;
    try (Database db = Database.open(DatabaseSettings.file(duck))) {
      db.jdbi().useTransaction(handle -> StoredResults.store(handle, "duck"));
      duckResults = results(db, "duck");
    }
    duckResults.remove("report/run_overview?"); // the file's runs: not stored with a lake's
    assertThat(sparkResults.keySet()).isEqualTo(duckResults.keySet());
    ObjectMapper json = new ObjectMapper();
    for (Map.Entry<String, String> result : duckResults.entrySet()) {
      assertSameResult(
          result.getKey(),
          "",
          json.readTree(result.getValue()),
          json.readTree(sparkResults.get(result.getKey())));
    }
  }

  /**
   * Equal JSON, percentiles (fields p50…, p99…) to the last digit; other doubles (means, shares:
   * sums whose order follows the rows' order in a table or a Parquet file) within 1e-12 relative.
   */
  private static void assertSameResult(String query, String field, JsonNode duck, JsonNode spark) {
    if (duck.isDouble() && spark.isNumber() && !field.matches("p\\d+.*")) {
      assertThat(spark.doubleValue())
          .as("%s: %s", query, field)
          .isCloseTo(duck.doubleValue(), within(Math.abs(duck.doubleValue()) * 1e-12));
    } else if (duck.isContainerNode()) {
      assertThat(spark.size()).as("%s: %s", query, field).isEqualTo(duck.size());
      if (duck.isArray()) {
        for (int i = 0; i < duck.size(); i++) {
          assertSameResult(query, field, duck.get(i), spark.get(i));
        }
      } else {
        duck.fieldNames()
            .forEachRemaining(
                name -> assertSameResult(query, name, duck.get(name), spark.path(name)));
      }
    } else {
      assertThat(spark).as("%s: %s", query, field).isEqualTo(duck);
    }
  }

  private static Map<String, String> results(Database db, String runId) {
    Map<String, String> rows = new java.util.TreeMap<>();
    for (String[] row :
        db.jdbi()
            .withHandle(
                handle ->
                    handle
                        .createQuery(
                            "SELECT query || '?' || params, rows_json FROM attribution_results"
                                + " WHERE run_id = :run_id")
                        .bind("run_id", runId)
                        .map(
                            (result, context) ->
                                new String[] {result.getString(1), result.getString(2)})
                        .list())) {
      rows.put(row[0], row[1]);
    }
    return rows;
  }

  /**
   * DuckDB's rows ({@code duck.request_attribution}) and Spark's ({@code spark_rows}), EXCEPT ALL
   * both ways.
   */
  private static void assertSameRows(Statement statement) throws Exception {
    assertThat(
            count(
                statement,
                "SELECT count(*) FROM (FROM duck.request_attribution EXCEPT ALL FROM spark_rows)"))
        .as("DuckDB rows not in Spark's")
        .isZero();
    assertThat(
            count(
                statement,
                "SELECT count(*) FROM (FROM spark_rows EXCEPT ALL FROM duck.request_attribution)"))
        .as("Spark rows not in DuckDB's")
        .isZero();
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getLong(1);
    }
  }
}
