package dev.tokentrace.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * GPU telemetry files through the whole batch path: {@code ingest --engine auto} detects each
 * tool's format, ships the events through the embedded broker and the sink stores them in the gpu
 * tables of DuckDB, with the bad lines in {@code rejects} (docs/formats/gpu.md).
 */
final class GpuIngestIT {
  private static final Path FORMATS = GoldenSamplesTest.SAMPLES.resolve("gpu").resolve("formats");

  @TempDir Path dir;

  @Test
  void ingestsEveryGpuToolsFileIntoItsTables() throws Exception {
    Path db = dir.resolve("gpu.duckdb");
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    int code =
        command.execute(
            "ingest",
            "--db",
            db.toString(),
            "--instance",
            "vllm-0",
            "--max-reject-ratio",
            "1",
            FORMATS.resolve("nvidia-smi-550-query-gpu-loop/gpu.csv").toString(),
            FORMATS.resolve("nvidia-smi-550-compute-apps/apps.csv").toString(),
            FORMATS.resolve("nvidia-smi-550-dmon-dt/dmon.log").toString(),
            FORMATS.resolve("nvidia-smi-550-pmon/pmon.log").toString(),
            FORMATS.resolve("dcgm-exporter-3.3-k8s/dcgm.prom").toString(),
            FORMATS.resolve("nvidia-smi-bad-input/gpu.csv").toString());
    assertThat(code).as(err.toString()).isZero();

    // 6 query-gpu + 5 dmon + 4 dcgm + 3 bad-input samples; 4 compute-apps + 3 pmon processes
    assertThat(query(db, "SELECT count(*) || ' ' || count(DISTINCT tool) FROM gpu_sample"))
        .isEqualTo("18 3");
    assertThat(query(db, "SELECT count(*) FROM gpu_process WHERE instance = 'vllm-0'"))
        .isEqualTo("7");
    assertThat(query(db, "SELECT count(*) FROM server_notice WHERE engine = 'gpu'")).isEqualTo("1");
    assertThat(query(db, "SELECT count(*) FROM rejects WHERE engine = 'gpu'")).isEqualTo("3");
    assertThat(
            query(
                db,
                "SELECT max(power_w) FROM gpu_sample WHERE tool = 'query-gpu'"
                    + " AND source_path LIKE '%bad-input%'"))
        .isEqualTo("305.12");
  }

  /**
   * {@code --gpu-map} with {@code --follow}: each query-gpu line is stamped with its GPU's instance
   * as it arrives, lines appended after a first run included
   * (docs/formats/gpu.md#one-file-several-instances).
   */
  @Test
  void followMapsEachGpuLineToItsInstanceAsItArrives() throws Exception {
    Path db = dir.resolve("follow.duckdb");
    Path csv = dir.resolve("gpus.csv");
    List<String> lines =
        Files.readAllLines(FORMATS.resolve("nvidia-smi-550-query-gpu-loop/gpu.csv"), UTF_8);
    // the header and the first two samples (GPU 0 and 1) now; after the first run, the loop
    // restarted with other fields (a new header, rows without UUID: mapped by index)
    Files.write(csv, lines.subList(0, 3), UTF_8);
    followOnce(db, csv);
    assertThat(
            query(
                db, "SELECT string_agg(DISTINCT instance, ',' ORDER BY instance) FROM gpu_sample"))
        .isEqualTo("node-7,vllm-a");
    assertThat(lines.get(5)).startsWith("timestamp, index, utilization.gpu");
    Files.write(csv, lines.subList(5, lines.size()), UTF_8, StandardOpenOption.APPEND);
    followOnce(db, csv);
    assertThat(
            query(
                db,
                "SELECT string_agg(gpu_index || '=' || instance || ':' || n, ' ' ORDER BY gpu_index)"
                    + " FROM (SELECT gpu_index, instance, count(*) AS n FROM gpu_sample"
                    + " GROUP BY ALL)"))
        .isEqualTo("0=vllm-a:2 1=node-7:2");
  }

  /**
   * A shipper stopped between two {@code ingest --follow --once} runs while nvidia-smi keeps
   * writing: the rows appended while it was down, after the query CSV, compute-apps and dmon
   * headers it read before, are read with those headers from the checkpoint; a file rotated while
   * it was down is read to its end with them, and the new file at its name with its own header
   * alone (docs/formats/gpu.md#following-across-restarts).
   */
  @Test
  void followResumesAfterARestartWithTheHeadersReadBefore() throws Exception {
    Path db = dir.resolve("restart.duckdb");
    List<String> gpu = sample("nvidia-smi-550-query-gpu-loop/gpu.csv");
    List<String> apps = sample("nvidia-smi-550-compute-apps/apps.csv");
    List<String> dmon = sample("nvidia-smi-550-dmon-dt/dmon.log");
    Path gpuCsv = dir.resolve("gpu.csv");
    Path appsCsv = dir.resolve("apps.csv");
    Path dmonLog = dir.resolve("dmon.log");
    Path rotated = dir.resolve("rot.csv");
    Files.write(gpuCsv, gpu.subList(0, 3), UTF_8);
    Files.write(appsCsv, apps.subList(0, 2), UTF_8);
    Files.write(dmonLog, dmon.subList(0, 4), UTF_8);
    Files.write(rotated, gpu.subList(0, 2), UTF_8);
    List<Path> files = List.of(gpuCsv, appsCsv, dmonLog, rotated);
    // 5 header lines (dmon has two), 2 + 1 + 2 + 1 rows
    assertThat(followOnce(db, "gpu-restart", files))
        .contains("lines=11 parsed=6 ignored=5 rejected=0");

    // down: each loop goes on writing rows under the header already read
    Files.write(gpuCsv, gpu.subList(3, 5), UTF_8, StandardOpenOption.APPEND);
    Files.write(appsCsv, apps.subList(2, 4), UTF_8, StandardOpenOption.APPEND);
    Files.write(dmonLog, dmon.subList(4, 6), UTF_8, StandardOpenOption.APPEND);
    // rot.csv: one more row, renamed away; a new rot.csv with other fields (no uuid)
    Files.write(rotated, gpu.subList(2, 3), UTF_8, StandardOpenOption.APPEND);
    Files.move(rotated, dir.resolve("rot.csv.1"));
    Files.write(rotated, gpu.subList(5, 8), UTF_8);
    // 2 + 2 + 2 rows, rot.csv.1's row, rot.csv's header and 2 rows
    assertThat(followOnce(db, "gpu-restart", files))
        .contains("lines=10 parsed=9 ignored=1 rejected=0");

    assertThat(query(db, "SELECT count(*) FROM rejects")).isEqualTo("0");
    assertThat(
            query(
                db,
                "SELECT string_agg(file || '=' || n, ' ' ORDER BY file) FROM (SELECT"
                    + " regexp_extract(source_path, '[a-z]+\\.[a-z0-9.]+$') AS file, count(*) AS n"
                    + " FROM gpu_sample GROUP BY ALL)"))
        .isEqualTo("dmon.log=4 gpu.csv=4 rot.csv=4");
    assertThat(query(db, "SELECT count(*) FROM gpu_process")).isEqualTo("3");
    // the new rot.csv's rows have no uuid column: read by their own header
    assertThat(
            query(
                db,
                "SELECT count(*) FROM gpu_sample WHERE gpu_uuid IS NULL AND tool = 'query-gpu'"))
        .isEqualTo("2");
  }

  private static List<String> sample(String name) throws java.io.IOException {
    return Files.readAllLines(FORMATS.resolve(name), UTF_8);
  }

  private static String followOnce(Path db, String shipper, List<Path> files, String... options) {
    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(out, true));
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "ingest",
                "--follow",
                "--once",
                "--db",
                db.toString(),
                "--engine",
                "gpu",
                "--instance",
                "node-7",
                "--status-interval",
                "0s",
                "--shipper-id",
                shipper));
    args.addAll(List.of(options));
    files.forEach(file -> args.add(file.toString()));
    int code = command.execute(args.toArray(String[]::new));
    assertThat(code).as(err.toString()).isZero();
    return out + "\n" + err;
  }

  private static void followOnce(Path db, Path csv) {
    followOnce(db, "gpu-follow", List.of(csv), "--gpu-map", "0=vllm-a");
  }

  private static String query(Path db, String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getString(1);
    }
  }
}
