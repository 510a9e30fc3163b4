package dev.tokentrace.cli;

import static dev.tokentrace.cli.GatewayLiveIT.ingest;
import static dev.tokentrace.cli.GatewayLiveIT.rows;
import static dev.tokentrace.cli.GatewayLiveIT.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tokentrace.measure.ClientCsv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The method's measurement protocol in one command ([2.7] 13): {@code loadgen --matrix} against
 * {@code simulate --serve} (in this JVM) sweeps output lengths × concurrency with warm-up requests
 * first into one client CSV with the cell per request
 * (docs/formats/client-files.md#matrix-columns); {@code clients}, {@code correlate} and {@code
 * report} then show the matrix table and the two regressions (docs/reports.md#matrix) in Markdown
 * and JSON.
 */
final class LoadgenMatrixIT {
  private static final int ROUNDS = 3;
  private static final int WARMUP = 2;

  @TempDir Path dir;

  @Test
  void sweepGoesIntoOneFileWithItsCellsAndTheReportReadsTheMatrix() throws Exception {
    Path served = dir.resolve("server");
    Path clients = dir.resolve("sweep.csv");
    LiveSimulator server = LiveSimulator.start(served);
    try {
      int port = server.port();
      run(
          "loadgen",
          "--url",
          "http://127.0.0.1:" + port,
          "--api",
          "completions",
          "--matrix",
          "output=8,16",
          "concurrency=1,2,4",
          "--rounds",
          Integer.toString(ROUNDS),
          "--warmup",
          Integer.toString(WARMUP),
          "--prompt-tokens",
          "50",
          "--id-prefix",
          "mx-",
          "--out",
          clients.toString());
    } finally {
      server.stop();
    }
    List<String> lines = Files.readAllLines(clients);
    assertThat(lines.get(0)).isEqualTo(ClientCsv.MATRIX_HEADER);
    // warm-up + rounds × concurrency per cell, for both outputs
    assertThat(lines).hasSize(1 + WARMUP + 2 * ROUNDS * (1 + 2 + 4));
    assertThat(lines.stream().filter(line -> line.endsWith(",warm-up"))).hasSize(WARMUP);
    assertThat(lines.stream().filter(line -> line.endsWith(",prompt=50 output=16 concurrency=4")))
        .hasSize(ROUNDS * 4);

    Path db = dir.resolve("sweep.duckdb");
    ingest(db, served);
    run("clients", "--db", db.toString(), "--run-id", "sweep", clients.toString());
    run("correlate", "--db", db.toString());
    List<Map<String, Object>> cells =
        rows(
            db,
            "SELECT cell, max_tokens, count(*) AS n FROM client_timing WHERE NOT warmup"
                + " GROUP BY ALL ORDER BY max_tokens, cell");
    assertThat(cells).hasSize(6);
    assertThat(cells.get(0).get("cell")).isEqualTo("prompt=50 output=8 concurrency=1");
    assertThat(cells.get(0).get("max_tokens")).isEqualTo(8);

    Path markdown = dir.resolve("report.md");
    Path json = dir.resolve("report.json");
    Path html = dir.resolve("report.html");
    run("report", "--db", db.toString(), "--format", "html", "--out", html.toString());
    assertThat(Files.readString(html))
        .contains("<section id=\"matrix\"><h2>Sweep matrix</h2>")
        .contains("ITL P50 \u00d7");
    run("report", "--db", db.toString(), "--out", markdown.toString());
    run("report", "--db", db.toString(), "--format", "json", "--out", json.toString());
    String report = Files.readString(markdown);
    assertThat(report).contains("## Sweep matrix");
    assertThat(report)
        .containsPattern("`sweep`: ITL P50 \\w+ ×\\d+\\.\\d\\d .* concurrency doubles");
    assertThat(report)
        .containsPattern("`sweep`: TTFT P50 \\w+ ×\\d+\\.\\d\\d .* output length doubles");
    JsonNode matrix = new ObjectMapper().readTree(json.toFile()).get("matrix");
    assertThat(matrix.get("cells")).hasSize(6);
    for (JsonNode cell : matrix.get("cells")) {
      assertThat(cell.get("requests").asLong())
          .isEqualTo(ROUNDS * cell.get("concurrency").asLong());
      assertThat(cell.get("ttft_p50_ms").asDouble()).isPositive();
      assertThat(cell.get("itl_p50_ms").asDouble()).isPositive();
      assertThat(cell.get("tpot_p50_ms").asDouble()).isPositive();
      assertThat(cell.get("requests_per_s").asDouble()).isPositive();
      assertThat(cell.get("output_tokens_per_s").asDouble())
          .isGreaterThan(cell.get("requests_per_s").asDouble());
    }
    assertThat(matrix.get("regressions").findValuesAsText("dimension"))
        .containsExactly("concurrency", "output");
    System.out.println(
        "LoadgenMatrixIT: "
            + report.substring(
                report.indexOf("## Sweep matrix"),
                report.indexOf("## ", report.indexOf("## Sweep matrix") + 5)));
  }
}
