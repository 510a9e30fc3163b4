package dev.tokentrace.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The simulated TensorRT-LLM P/D sample (samples/pd/trtllm/transfer-bound,
 * docs/formats/pd.md#tensorrt-llm) ingests as its SOURCE.md says: both servers' perf metrics, keyed
 * by the context request id, and every transfer from the perf metrics and both CSVs, with no
 * rejection.
 */
final class PdTrtllmSampleTest {
  private static final Path SAMPLE = Path.of("..", "samples", "pd", "trtllm", "transfer-bound");
  private static final int REQUESTS = 40;

  @Test
  void sampleIngestsWithoutRejection(@TempDir Path work) throws Exception {
    Path db = work.resolve("pd.duckdb");
    StringWriter err = new StringWriter();
    CommandLine command = TokentraceMain.commandLine();
    command.setErr(new PrintWriter(err, true));
    command.setOut(new PrintWriter(new StringWriter(), true));
    int code =
        command.execute(
            "ingest",
            "--db",
            db.toString(),
            "--engine",
            "trtllm",
            "prefill-0=" + SAMPLE.resolve("prefill-0/perf_metrics.jsonl"),
            "prefill-0=" + SAMPLE.resolve("prefill-0/kv_cache_time/rank_0_send.csv"),
            "decode-0=" + SAMPLE.resolve("decode-0/perf_metrics.jsonl"),
            "decode-0=" + SAMPLE.resolve("decode-0/kv_cache_time/rank_0_recv.csv"));
    assertThat(code).as(err.toString()).isZero();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT (SELECT count(*) FROM rejects),"
                    + " (SELECT count(DISTINCT request_key) FROM request_timing),"
                    + " (SELECT count(*) FROM request_timing),"
                    + " (SELECT count(*) FROM kv_transfer WHERE side = 'decode'),"
                    + " (SELECT count(*) FROM kv_transfer WHERE side = 'prefill')")) {
      row.next();
      assertThat(row.getLong(1)).as("rejects").isZero();
      assertThat(row.getLong(2)).as("keys: one per request").isEqualTo(REQUESTS);
      assertThat(row.getLong(3)).as("records: two halves per request").isEqualTo(2 * REQUESTS);
      assertThat(row.getLong(4)).as("perf metrics and recv CSV").isEqualTo(2 * REQUESTS);
      assertThat(row.getLong(5)).as("send CSV").isEqualTo(REQUESTS);
    }
  }
}
