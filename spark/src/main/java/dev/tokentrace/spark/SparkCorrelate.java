package dev.tokentrace.spark;

import dev.tokentrace.store.lake.LakeMarker;
import dev.tokentrace.store.lake.LakeTableVersions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tokentrace spark-correlate --lake DIR [--master URL]}, also the main class for {@code
 * spark-submit} (docs/scale.md): the attribution of the lake's committed files on Spark, written
 * back as the lake's next version of {@code request_attribution}. Exit codes: 0 ok, 1 Spark or the
 * file system failed, 2 usage (not a lake).
 */
@Command(
    name = "spark-correlate",
    mixinStandardHelpOptions = true,
    description =
        "Attributes the lake's committed events and client rows on Apache Spark and writes"
            + " request_attribution back to the lake as its next version (docs/scale.md).")
public final class SparkCorrelate implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--lake", required = true, paramLabel = "DIR", description = "The lake.")
  private Path lake;

  @Option(
      names = "--master",
      paramLabel = "URL",
      description =
          "Spark master (local[2], spark://host:7077, yarn, k8s://...); default: what spark-submit"
              + " set, else local[*].")
  private @Nullable String master;

  @Option(
      names = "--shuffle-partitions",
      paramLabel = "N",
      description =
          "spark.sql.shuffle.partitions; default: Spark's (200), or what spark-submit set.")
  private @Nullable Integer shufflePartitions;

  /** A session with the settings the attribution relies on (docs/scale.md#dialect). */
  public static SparkSession session(@Nullable String master, @Nullable Integer partitions) {
    SparkSession.Builder builder =
        SparkSession.builder()
            .appName("tokentrace spark-correlate")
            // DuckDB's TIMESTAMP is UTC without zone; Spark reads and computes it in UTC
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.sql.parquet.inferTimestampNTZ.enabled", "false")
            .config("spark.ui.enabled", "false");
    if (master != null) {
      builder.master(master);
    } else if (System.getProperty("spark.master") == null) {
      builder.master("local[*]");
    }
    if (partitions != null) {
      builder.config("spark.sql.shuffle.partitions", partitions.toString());
    }
    return builder.getOrCreate();
  }

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    if (!Files.isDirectory(lake)) {
      err.println("spark-correlate: " + lake + ": no such directory");
      return 2;
    }
    try {
      LakeMarker.read(lake); // before Spark starts: a directory that is no lake is a usage error
    } catch (IllegalArgumentException e) {
      err.println("spark-correlate: " + e.getMessage());
      return 2;
    }
    long started = System.nanoTime();
    // a session that already runs in this JVM (a test's, a notebook's) is used and left running
    boolean own = SparkSession.getActiveSession().isEmpty();
    SparkSession spark = session(master, shufflePartitions);
    if (own) {
      spark.sparkContext().setLogLevel("WARN");
    }
    try {
      Path scratch = Files.createTempDirectory("tokentrace-spark");
      try {
        SparkLake.Inputs inputs = SparkLake.register(spark, lake, scratch);
        err.println(
            "spark-correlate: lake " + lake + ": committed files per table " + inputs.files());
        err.println(
            "spark-correlate: rules: request-ID matching with the SQL's defaults (correlate without"
                + " options); --match heuristic is not run on Spark");
        if (SparkAttribution.mapsClientIds(spark)) {
          err.println(
              "spark-correlate: client IDs are mapped to the IDs the servers logged by the lake's"
                  + " proxy access log lines or SGLang's bootstrap rooms, as correlate does"
                  + " (docs/formats/pd.md#proxy-access-log)");
        }
        Dataset<Row> rows = SparkAttribution.run(spark);
        SparkLake.Stored stored =
            SparkLake.store(
                spark,
                rows,
                lake,
                inputs.snapshot(),
                String.join(" ", "tokentrace spark-correlate", String.join(" ", originalArgs())),
                scratch,
                LakeTableVersions.DEFAULT_GRACE);
        LakeTableVersions.Written written = stored.attribution();
        err.printf(
            "spark-correlate: request_attribution written to the lake %s as version %d (%d rows)"
                + " in %.1f s on %s%n",
            lake,
            written.version().version(),
            written.version().rows(),
            (System.nanoTime() - started) / 1e9,
            spark.sparkContext().master());
        err.printf(
            "spark-correlate: %d report result(s) stored with it as run %s (clock_offsets and"
                + " attribution_results versions); report --lake reads them while the lake's"
                + " committed files stay as they are%n",
            stored.results(), stored.runId());
        return 0;
      } finally {
        SparkLake.deleteTree(scratch);
      }
    } catch (IllegalArgumentException e) {
      err.println("spark-correlate: " + e.getMessage());
      return 2;
    } catch (RuntimeException | java.io.IOException e) {
      err.println("spark-correlate: " + e.getMessage());
      return 1;
    } finally {
      if (own) {
        spark.stop();
      }
    }
  }

  private java.util.List<String> originalArgs() {
    return spec.commandLine().getParseResult().originalArgs();
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new SparkCorrelate()).execute(args));
  }
}
