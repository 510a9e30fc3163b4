package dev.tokentrace.bench.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.bench.correlate.Measured;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeManifest;
import dev.tokentrace.store.lake.LakeMarker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A lake of N generated requests for the Spark/DuckDB scale benchmark (bench/spark.sh,
 * BENCHMARKS.md "Spark against DuckDB"): the tables of {@code bench/generate_requests.sql} (the
 * correlate benchmark's requests: every one joins and is attributed) written straight into the lake
 * as a sink would have committed them: per table one partition of its own, one data file with the
 * range {@code [0, rows)} and the partition's manifest (docs/storage.md#lake-layout). Without Kafka
 * and without the sink's row-by-row staging, so 100 M requests take minutes, not hours.
 *
 * <pre>
 * ScaleLake REQUESTS DIR        writes DIR/requests-N.duckdb (kept) and the lake DIR/lake-N
 * </pre>
 */
public final class ScaleLake {
  private static final List<String> TABLES =
      List.of("client_timing", "request_arrived", "request_timing", "engine_stats");
  private static final String TOPIC = "tokentrace.bench";

  private ScaleLake() {}

  public static void main(String[] args) throws Exception {
    long requests = Long.parseLong(args[0]);
    Path dir = Path.of(args[1]).toAbsolutePath();
    Files.createDirectories(dir);
    Path db = dir.resolve("requests-" + requests + ".duckdb");
    if (!Files.exists(db)) {
      Measured.main(
          new String[] {
            dir.resolve("generate.result").toString(), "generate", db.toString(), args[0]
          });
    }
    Path lake = dir.resolve("lake-" + requests);
    if (Files.exists(lake)) {
      System.err.println("lake " + lake + " exists: kept");
      return;
    }
    Files.createDirectories(lake);
    LakeMarker.of("tokentrace", "bench").createOrCheck(lake);
    Files.createDirectories(lake.resolve("_manifests"));
    ObjectMapper json = new ObjectMapper();
    try (Database database = Database.open(DatabaseSettings.file(db));
        Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      for (int partition = 0; partition < TABLES.size(); partition++) {
        String table = TABLES.get(partition);
        long rows;
        try (ResultSet count = statement.executeQuery("SELECT count(*) FROM " + table)) {
          count.next();
          rows = count.getLong(1);
        }
        String name = String.format("%s-%d-%020d-%020d.bench.parquet", TOPIC, partition, 0, rows);
        String relative = table + "/date=2026-01-05/hour=08/" + name;
        Path file = lake.resolve(relative);
        Files.createDirectories(file.getParent());
        statement.execute("COPY (FROM " + table + ") TO '" + file + "' (FORMAT parquet)");
        LakeManifest manifest =
            new LakeManifest(
                TOPIC,
                partition,
                "bench-topic",
                rows,
                Map.of(table, rows),
                Instant.now().toString(),
                List.of(relative));
        Path temp = lake.resolve("_manifests").resolve(TOPIC + "-" + partition + ".json.tmp");
        json.writeValue(temp.toFile(), manifest);
        Files.move(temp, lake.resolve("_manifests").resolve(TOPIC + "-" + partition + ".json"));
        System.err.println(table + ": " + rows + " rows -> " + relative);
      }
    }
  }
}
