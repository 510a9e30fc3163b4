package dev.tokentrace.spark;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.correlate.attribution.AttributionSettings;
import dev.tokentrace.correlate.attribution.Attributor;
import dev.tokentrace.correlate.live.LakeEvents;
import dev.tokentrace.correlate.live.LakeStoredResults;
import dev.tokentrace.report.load.StoredResults;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.Runs;
import dev.tokentrace.store.lake.Lake;
import dev.tokentrace.store.lake.LakeFile;
import dev.tokentrace.store.lake.LakeSnapshot;
import dev.tokentrace.store.lake.LakeTableVersions;
import dev.tokentrace.store.lake.LakeTables;
import dev.tokentrace.table.TableSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The lake for Spark (docs/scale.md#reading-the-lake): each input table of the attribution as a
 * temporary view over exactly the files a lake reader takes ({@link LakeSnapshot}: committed,
 * non-overlapping; never a glob of the folder, which would count a compaction's inputs twice), with
 * the columns of {@code sql/schema/}; and the attribution written back as the lake's next version
 * of {@code request_attribution} through {@link LakeTableVersions#write}, the commit every reader
 * ({@code sql --lake}, {@code serve --lake}, {@code report --lake}) already follows.
 */
public final class SparkLake {
  /** The tables the attribution statements read, each made a view. */
  public static final List<String> INPUTS =
      List.of(
          "client_timing",
          "request_timing",
          "request_arrived",
          "request_aborted",
          "kv_transfer",
          "request_matches",
          // the maps from client IDs to the servers' keys (attribution/proxy_keys): a proxy
          // access log's events; proxy_requests (loaded by `clients`) is never in a lake: empty
          "proxy_request",
          "proxy_requests");

  /**
   * The inputs the statements join by DuckDB's {@code rowid}: they get a {@code rowid} column, a
   * unique number per row held fixed for the run (docs/scale.md#dialect).
   */
  private static final Set<String> WITH_ROWID =
      Set.of("client_timing", "request_timing", "request_arrived", "request_aborted");

  /** The report's query that lists its file's runs: not stored with a lake's attribution. */
  private static final String RUN_OVERVIEW = "report/run_overview";

  private SparkLake() {}

  /** What {@link #register} read: committed files per table. */
  public record Inputs(LakeSnapshot snapshot, Map<String, Integer> files) {}

  /**
   * Registers one view per {@link #INPUTS} table over the lake's committed files as of now.
   *
   * @throws IllegalArgumentException naming the directory when it is not a tokentrace lake
   */
  public static Inputs register(SparkSession spark, Path lake, Path scratch) {
    requireNonNull(spark, "spark is null");
    LakeSnapshot snapshot = LakeSnapshot.scan(lake);
    Map<String, StructType> schemas = schemas(spark, scratch);
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String table : INPUTS) {
      List<String> paths = new ArrayList<>();
      if (LakeTables.named(table) != null) {
        for (LakeFile file : snapshot.files(table)) {
          paths.add(file.path().toAbsolutePath().toString());
        }
      }
      counts.put(table, paths.size());
      StructType schema = schemas.get(table);
      Dataset<Row> rows =
          paths.isEmpty()
              ? spark.createDataFrame(List.of(), schema)
              : spark.read().schema(schema).parquet(paths.toArray(String[]::new));
      if (WITH_ROWID.contains(table)) {
        rows = rows.withColumn("rowid", functions.monotonically_increasing_id()).localCheckpoint();
      }
      rows.createOrReplaceTempView(table);
    }
    return new Inputs(snapshot, counts);
  }

  /**
   * The Spark schema of each input table: DuckDB writes an empty Parquet file of the table as
   * {@code sql/schema/} creates it, and Spark reads its schema (one mapping of types, DuckDB's).
   */
  private static Map<String, StructType> schemas(SparkSession spark, Path scratch) {
    Map<String, StructType> schemas = new LinkedHashMap<>();
    try (Database database = Database.open(DatabaseSettings.inMemory());
        Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      Files.createDirectories(scratch);
      for (String table : INPUTS) {
        Path file = scratch.resolve("schema." + table + ".parquet");
        statement.execute(
            "COPY (SELECT * FROM " + table + " LIMIT 0) TO " + literal(file) + " (FORMAT parquet)");
        schemas.put(table, spark.read().parquet(file.toString()).schema());
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot derive the input schemas: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return schemas;
  }

  /** What {@link #store} wrote: the attribution's version and the stored results' run. */
  public record Stored(LakeTableVersions.Written attribution, String runId, int results) {}

  /**
   * Stores the attribution in the lake whole (docs/scale.md#stored-results): {@code rows} as the
   * next version of {@code request_attribution}, Spark's {@code clock_offsets} view as the next
   * version of {@code clock_offsets}, then the report's stored results ({@code
   * attribution_results}), computed by DuckDB in this process over the same snapshot's files and
   * the version just written, with the state row that ties the three and the snapshot together:
   * that last version is the commit a lake reader adopts ({@code LakeStoredResults}). Spark writes
   * each table to a scratch folder under the lake's {@code _tmp}; DuckDB casts the rows to the
   * table's columns ({@code sql/schema/}) into the version file. Timestamps leave Spark without
   * time zone (UTC), as the lake stores them.
   *
   * @param command the command line, recorded with the attribution's run
   */
  public static Stored store(
      SparkSession spark,
      Dataset<Row> rows,
      Path lake,
      LakeSnapshot snapshot,
      String command,
      Path scratch,
      Duration grace) {
    Instant started = Instant.now();
    List<Path> staged = new ArrayList<>();
    try {
      Path attributionRows = stage(rows, lake, "request_attribution");
      staged.add(attributionRows);
      Path offsetRows = stage(spark.table("clock_offsets"), lake, "clock_offsets");
      staged.add(offsetRows);
      // a file, not memory: the report's queries over 10 M rows spill
      // (docs/scale.md#stored-results)
      Path file = scratch.resolve("stored-results.duckdb");
      try (Database database = Database.open(DatabaseSettings.file(file));
          Connection connection = database.newConnection()) {
        LakeTableVersions.Written attribution =
            LakeTableVersions.write(
                connection,
                lake,
                "request_attribution",
                castSelect(connection, "request_attribution", attributionRows),
                grace);
        LakeTableVersions.Written offsets =
            LakeTableVersions.write(
                connection,
                lake,
                "clock_offsets",
                castSelect(connection, "clock_offsets", offsetRows),
                grace);
        try (Statement statement = connection.createStatement()) {
          // the snapshot Spark read, as views; the attribution as its version; the offsets copied
          for (TableSchema<?> table : LakeTables.ALL) {
            statement.execute("DROP TABLE IF EXISTS " + table.name());
            statement.execute(
                "CREATE VIEW "
                    + table.name()
                    + " AS "
                    + Lake.select(table, snapshot.files(table.name())));
          }
          statement.execute("DROP TABLE request_attribution");
          statement.execute(
              "CREATE VIEW request_attribution AS SELECT * FROM read_parquet("
                  + literal(attribution.version().path(lake))
                  + ")");
          statement.execute(
              "INSERT INTO clock_offsets BY NAME SELECT * FROM read_parquet("
                  + literal(offsets.version().path(lake))
                  + ")");
        }
        String runId = Runs.newId(connection, "spark-correlate", started);
        int results =
            database
                .jdbi()
                .inTransaction(
                    handle -> {
                      int stored = StoredResults.store(handle, runId);
                      // the runs a report lists are its file's, not the lake's: computed there
                      return stored
                          - handle
                              .createUpdate("DELETE FROM attribution_results WHERE query = :query")
                              .bind("query", RUN_OVERVIEW)
                              .execute();
                    });
        LakeStoredResults.write(
            connection,
            lake,
            new LakeStoredResults.State(
                runId,
                attribution.version().file(),
                offsets.version().file(),
                LakeEvents.fingerprint(snapshot),
                Attributor.params(AttributionSettings.defaults()),
                command,
                started.toString()),
            grace);
        return new Stored(attribution, runId, results);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(
          "lake " + lake + ": cannot store the attribution: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new UncheckedIOException("lake " + lake + ": cannot store the attribution", e);
    } finally {
      for (Path path : staged) {
        deleteTree(path);
      }
    }
  }

  /** Spark writes {@code rows} as Parquet into a scratch folder under the lake's {@code _tmp}. */
  private static Path stage(Dataset<Row> rows, Path lake, String table) {
    Path staging =
        lake.resolve("_tmp")
            .resolve("spark." + table + "." + UUID.randomUUID().toString().substring(0, 12));
    List<Column> columns = new ArrayList<>();
    for (StructField field : rows.schema().fields()) {
      Column column = functions.col(field.name());
      if (field.dataType().equals(DataTypes.TimestampType)) {
        column = column.cast(DataTypes.TimestampNTZType);
      }
      columns.add(column.as(field.name()));
    }
    rows.select(columns.toArray(Column[]::new))
        .write()
        .mode(SaveMode.ErrorIfExists)
        .parquet(staging.toString());
    return staging;
  }

  /** Every column of {@code table}, cast to its type; a column Spark did not make is NULL. */
  private static String castSelect(Connection connection, String table, Path staging)
      throws SQLException {
    List<String> items = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet made =
            statement.executeQuery(
                "DESCRIBE SELECT * FROM read_parquet("
                    + literal(staging.resolve("*.parquet"))
                    + ")"); ) {
      List<String> names = new ArrayList<>();
      while (made.next()) {
        names.add(made.getString(1));
      }
      try (ResultSet columns =
          statement.executeQuery(
              "SELECT column_name, data_type FROM information_schema.columns"
                  + " WHERE table_schema = 'main' AND table_name = '"
                  + table
                  + "' ORDER BY ordinal_position")) {
        while (columns.next()) {
          String name = columns.getString(1);
          String type = columns.getString(2);
          items.add(
              "CAST(" + (names.contains(name) ? name : "NULL") + " AS " + type + ") AS " + name);
        }
      }
    }
    return "SELECT "
        + String.join(", ", items)
        + " FROM read_parquet("
        + literal(staging.resolve("*.parquet"))
        + ")";
  }

  static String literal(Path path) {
    return "'" + path.toAbsolutePath().toString().replace("'", "''") + "'";
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove " + dir, e);
    }
  }
}
