package dev.tokentrace.bench.spark;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.lake.LakeManifest;
import dev.tokentrace.store.lake.LakeMarker;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A lake of N generated requests for the Spark/DuckDB scale benchmark (bench/spark.sh,
 * BENCHMARKS.md "Spark against DuckDB"): the tables of {@code generate_requests.sql} (the correlate
 * benchmark's requests: every one joins and is attributed) written straight into the lake as a sink
 * would have committed them (docs/storage.md#lake-layout): per table one partition of its own,
 * whose data files each hold one chunk of requests, named by their row range {@code [first, end)},
 * and the partition's manifest, written last (the commit). Each chunk is generated in an in-memory
 * DuckDB and copied to its Parquet file, then dropped: memory stays that of one chunk, and no
 * database file of all requests is written and copied again (docs/scale.md#generating-the-lake).
 *
 * <pre>
 * ScaleLake REQUESTS DIR [CHUNK]   writes the lake DIR/lake-REQUESTS (kept when it exists);
 *                                  CHUNK requests per file (default 1,000,000)
 * </pre>
 */
public final class ScaleLake {
  private static final List<String> TABLES =
      List.of("client_timing", "request_arrived", "request_timing", "engine_stats");
  private static final String TOPIC = "tokentrace.bench";
  private static final String SQL = "/dev/tokentrace/bench/correlate/generate_requests.sql";
  private static final String ALL_REQUESTS = "FROM range(?))";

  private ScaleLake() {}

  public static void main(String[] args) throws Exception {
    long requests = Long.parseLong(args[0]);
    Path dir = Path.of(args[1]).toAbsolutePath();
    long chunk = args.length > 2 ? Long.parseLong(args[2]) : 1_000_000L;
    Path lake = dir.resolve("lake-" + requests);
    if (Files.exists(lake)) {
      System.err.println("lake " + lake + " exists: kept");
      return;
    }
    long started = System.nanoTime();
    Path partial = dir.resolve("lake-" + requests + ".partial");
    if (Files.exists(partial)) {
      throw new IllegalStateException(partial + " exists: left by a run that failed; remove it");
    }
    Files.createDirectories(partial);
    LakeMarker.of("tokentrace", "bench").createOrCheck(partial);
    Files.createDirectories(partial.resolve("_manifests"));
    Map<String, Long> rows = new LinkedHashMap<>();
    Map<String, List<String>> files = new LinkedHashMap<>();
    for (String table : TABLES) {
      rows.put(table, 0L);
      files.put(table, new ArrayList<>());
    }
    List<String> statements = statements();
    try (Database database = Database.open(DatabaseSettings.from(null, "3GB", null));
        Connection connection = database.newConnection();
        Statement statement = connection.createStatement()) {
      for (long first = 0; first < requests; first += chunk) {
        long end = Math.min(requests, first + chunk);
        for (String sql : statements) {
          boolean stats = sql.contains("INSERT INTO engine_stats");
          if (stats && first > 0) {
            continue; // one row per 10 s of the whole run: written with the first chunk
          }
          String bound =
              sql.contains(ALL_REQUESTS)
                  ? sql.replace(ALL_REQUESTS, "FROM range(" + first + ", " + end + "))")
                  : sql;
          try (PreparedStatement prepared = connection.prepareStatement(bound)) {
            for (int i = 1; i <= prepared.getParameterMetaData().getParameterCount(); i++) {
              prepared.setLong(i, requests);
            }
            prepared.execute();
          }
          // each table's rows to their file as soon as they are inserted: one table in memory
          for (int partition = 0; partition < TABLES.size(); partition++) {
            flush(statement, partial, partition, rows, files);
          }
        }
        System.err.printf(
            "requests [%d, %d) written, %.1f s, %.1f CPU-s%n",
            first, end, (System.nanoTime() - started) / 1e9, cpuSeconds());
      }
    }
    ObjectMapper json = new ObjectMapper();
    for (int partition = 0; partition < TABLES.size(); partition++) {
      String table = TABLES.get(partition);
      long count = rows.get(table);
      LakeManifest manifest =
          new LakeManifest(
              TOPIC,
              partition,
              "bench-topic",
              count,
              Map.of(table, count),
              Instant.now().toString(),
              files.get(table));
      Path temp = partial.resolve("_manifests").resolve(TOPIC + "-" + partition + ".json.tmp");
      json.writeValue(temp.toFile(), manifest);
      Files.move(temp, partial.resolve("_manifests").resolve(TOPIC + "-" + partition + ".json"));
      System.err.println(table + ": " + count + " rows in " + files.get(table).size() + " file(s)");
    }
    Files.move(partial, lake);
    System.err.printf(
        "lake %s: %d requests generated in %.1f s, %.1f CPU-s (this JVM)%n",
        lake, requests, (System.nanoTime() - started) / 1e9, cpuSeconds());
  }

  /** Copies the table's rows (if any) to the partition's next file, then deletes them. */
  private static void flush(
      Statement statement,
      Path lake,
      int partition,
      Map<String, Long> rows,
      Map<String, List<String>> files)
      throws SQLException, IOException {
    String table = TABLES.get(partition);
    long count = count(statement, table);
    if (count == 0) {
      return;
    }
    long from = rows.get(table);
    String name =
        String.format("%s-%d-%020d-%020d.bench.parquet", TOPIC, partition, from, from + count);
    String relative = table + "/date=2026-01-05/hour=08/" + name;
    Path file = lake.resolve(relative);
    Files.createDirectories(file.getParent());
    statement.execute("COPY (FROM " + table + ") TO '" + file + "' (FORMAT parquet)");
    statement.execute("DELETE FROM " + table);
    rows.put(table, from + count);
    files.get(table).add(relative);
  }

  private static long count(Statement statement, String table) throws SQLException {
    try (ResultSet count = statement.executeQuery("SELECT count(*) FROM " + table)) {
      count.next();
      return count.getLong(1);
    }
  }

  private static double cpuSeconds() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1e9;
  }

  private static List<String> statements() throws IOException {
    String text;
    try (InputStream in = ScaleLake.class.getResourceAsStream(SQL)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + SQL);
      }
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<String> statements = new ArrayList<>();
    for (String statement : text.split(";\n")) {
      if (!statement.strip().isEmpty()) {
        statements.add(statement);
      }
    }
    if (statements.stream().noneMatch(sql -> sql.contains(ALL_REQUESTS))) {
      throw new IllegalStateException(SQL + ": no '" + ALL_REQUESTS + "' to bound by chunk");
    }
    return statements;
  }
}
