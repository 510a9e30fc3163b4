package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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

  private static String query(Path db, String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery(sql)) {
      row.next();
      return row.getString(1);
    }
  }
}
