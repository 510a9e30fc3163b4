package dev.tokentrace.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.live.LakeEvents;
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
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The same lake through DuckDB ({@code correlate --lake}: the lake copied into a file, {@code
 * Attributor}) and through Spark ({@link SparkAttribution}, written back as the lake's version):
 * identical {@code request_attribution} rows (EXCEPT ALL both ways, in DuckDB, reading Spark's
 * version file) and equal percentiles of every component (docs/scale.md#equality).
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

  @ParameterizedTest
  @ValueSource(strings = {"retries", "production", "concurrency-sweep"})
  void sparkAttributesTheLakeAsDuckDbDoes(String scenario) throws Exception {
    Path lake = ScenarioLake.write(dir, scenario, 41, null);

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
      assertThat(duckRows).isPositive();
      assertThat(count(statement, "SELECT count(*) FROM duck.request_attribution WHERE included"))
          .isPositive();
      assertThat(written.rows()).isEqualTo(duckRows);
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
      // every component's percentiles in one aggregate on each side
      List<String> duckItems = new ArrayList<>();
      List<String> sparkItems = new ArrayList<>();
      for (String column : COMPONENTS) {
        duckItems.add("quantile_cont(" + column + ", [0.5, 0.9, 0.99])");
        sparkItems.add("percentile(" + column + ", array(0.5D, 0.9D, 0.99D))");
      }
      Row actual =
          spark
              .sql(
                  "SELECT "
                      + String.join(", ", sparkItems)
                      + " FROM request_attribution WHERE included")
              .first();
      try (ResultSet expected =
          statement.executeQuery(
              "SELECT "
                  + String.join(", ", duckItems)
                  + " FROM duck.request_attribution WHERE included")) {
        expected.next();
        for (int i = 0; i < COMPONENTS.size(); i++) {
          java.sql.Array duckArray = expected.getArray(i + 1); // NULL: no value in any row
          Object[] duckValues = duckArray == null ? null : (Object[]) duckArray.getArray();
          List<Double> sparkValues = actual.isNullAt(i) ? null : actual.getList(i);
          for (int q = 0; q < QUANTILES.length; q++) {
            Double duckValue = duckValues == null ? null : (Double) duckValues[q];
            Double sparkValue = sparkValues == null ? null : sparkValues.get(q);
            assertThat(sparkValue)
                .as("%s: percentile(%s, %s)", scenario, COMPONENTS.get(i), QUANTILES[q])
                .isEqualTo(duckValue);
          }
        }
      }
    }
    // the readers of the lake see Spark's version
    try (Database reader = Lake.openReader(lake);
        Connection connection = reader.newConnection();
        Statement statement = connection.createStatement()) {
      assertThat(count(statement, "SELECT count(*) FROM request_attribution"))
          .isEqualTo(written.rows());
    }
  }

  private static long count(Statement statement, String sql) throws Exception {
    try (ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getLong(1);
    }
  }

  private static Double value(Statement statement, String sql) throws Exception {
    try (ResultSet result = statement.executeQuery(sql)) {
      result.next();
      double value = result.getDouble(1);
      return result.wasNull() ? null : value;
    }
  }
}
