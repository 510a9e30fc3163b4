package dev.tokentrace.bench.correlate;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.cli.TokentraceMain;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import dev.tokentrace.store.SqlCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * One measured step of the correlation benchmark, run in its own JVM by {@link CorrelateBench}:
 * {@code RESULT-FILE generate DB N}, {@code RESULT-FILE bare DB} or {@code RESULT-FILE cli ARGS...}
 * (the real {@code tokentrace} command line, e.g. {@code correlate --db DB}). When the JVM exits, a
 * shutdown hook appends {@code wall_s cpu_s heap_peak_mib rss_peak_mib} to the result file: wall
 * time from entering this main, CPU time of the process (all threads, DuckDB's included), the sum
 * of the heap pools' peaks (an upper bound of the heap's peak: the pools peak at different times)
 * and {@code VmHWM}.
 */
public final class Measured {
  private static final String SQL = "/dev/tokentrace/bench/correlate/";

  /** The bare join's metrics, four per statement (bare_join.sql says why). */
  private static final List<List<String>> BARE_METRICS =
      List.of(
          List.of("ftl", "mlt", "tpot", "e2e"), List.of("network", "queue", "prefill", "decode"));

  private Measured() {}

  public static void main(String[] args) throws SQLException {
    long start = System.nanoTime();
    Path result = Path.of(args[0]);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> record(result, start)));
    String[] rest = Arrays.copyOfRange(args, 2, args.length);
    if (args[1].equals("generate")) {
      generate(Path.of(rest[0]), Long.parseLong(rest[1]));
    } else if (args[1].equals("bare")) {
      bare(Path.of(rest[0]));
    } else {
      TokentraceMain.main(rest);
    }
  }

  /** Applies the schema (as every command does) and fills the tables; see generate_requests.sql. */
  private static void generate(Path db, long requests) throws SQLException {
    try (Database database = Database.open(DatabaseSettings.file(db));
        Connection connection = database.newConnection()) {
      for (String statement : sql("generate_requests.sql").split(";\n")) {
        if (statement.strip().isEmpty()) {
          continue;
        }
        try (PreparedStatement prepared = connection.prepareStatement(statement)) {
          for (int i = 1; i <= prepared.getParameterMetaData().getParameterCount(); i++) {
            prepared.setLong(i, requests);
          }
          prepared.execute();
        }
      }
    }
  }

  /**
   * The bare join, on a connection with {@code correlate}'s DuckDB settings: the join written into
   * a table as wide as {@code request_attribution} (committed), then the percentiles per grouping
   * and four metrics at a time; prints its rows.
   */
  private static void bare(Path db) throws SQLException {
    Properties properties = SqlCatalog.connectionProperties();
    properties.setProperty("memory_limit", DatabaseSettings.MEMORY_LIMIT_DEFAULT);
    properties.setProperty("threads", Integer.toString(DatabaseSettings.THREADS_DEFAULT));
    String[] statements = sql("bare_join.sql").split(";\n");
    try (Connection connection =
            DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath(), properties);
        Statement statement = connection.createStatement()) {
      statement.execute(statements[0]);
      statement.execute(statements[1]);
      for (String grouping : List.of("NULL", "concurrency")) {
        for (List<String> metrics : BARE_METRICS) {
          String select =
              statements[2]
                  .replace("{grouping}", grouping)
                  .replace("{metrics}", bareAggregates(metrics));
          try (ResultSet rows = statement.executeQuery(select)) {
            print(rows, metrics);
          }
        }
      }
    }
  }

  private static String bareAggregates(List<String> metrics) {
    StringBuilder sql = new StringBuilder();
    for (String metric : metrics) {
      sql.append(sql.length() == 0 ? "" : ",\n       ")
          .append(
              String.format(
                  Locale.ROOT,
                  "count(%1$s) AS %1$s_n, quantile_cont(%1$s, [0.50, 0.90, 0.95, 0.99]) AS %1$s_q,"
                      + " avg(%1$s) AS %1$s_mean",
                  metric));
    }
    return sql.toString();
  }

  private static void print(ResultSet rows, List<String> metrics) throws SQLException {
    while (rows.next()) {
      for (String metric : metrics) {
        Object[] q = (Object[]) rows.getArray(metric + "_q").getArray();
        System.out.printf(
            Locale.ROOT,
            "%s %s n=%d p50=%s p90=%s p95=%s p99=%s mean=%.2f%n",
            rows.getObject("concurrency"),
            metric,
            rows.getLong(metric + "_n"),
            q[0],
            q[1],
            q[2],
            q[3],
            rows.getDouble(metric + "_mean"));
      }
    }
  }

  private static String sql(String name) {
    try (InputStream in = Measured.class.getResourceAsStream(SQL + name)) {
      if (in == null) {
        throw new IllegalStateException("no resource " + SQL + name);
      }
      return new String(in.readAllBytes(), UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + SQL + name, e);
    }
  }

  private static void record(Path result, long start) {
    double wallSeconds = (System.nanoTime() - start) / 1e9;
    double cpuSeconds =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime()
            / 1e9;
    long heapPeak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        heapPeak += pool.getPeakUsage().getUsed();
      }
    }
    String line =
        String.format(
            Locale.ROOT,
            "%.3f %.3f %.1f %.1f%n",
            wallSeconds,
            cpuSeconds,
            heapPeak / 1048576.0,
            peakRssKib() / 1024.0);
    try {
      Files.writeString(
          result, line, UTF_8, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    } catch (IOException e) {
      // a shutdown hook cannot throw usefully: the parent reports the missing result file
      System.err.println("cannot write " + result + ": " + e);
    }
  }

  private static long peakRssKib() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.substring(6).replace("kB", "").strip());
        }
      }
    } catch (IOException e) {
      // not Linux: the peak is unknown, shown as -1
      return -1;
    }
    return -1;
  }
}
