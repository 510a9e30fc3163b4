package dev.tokentrace.cli;

import static dev.tokentrace.cli.PdRows.run;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The P/D sample {@code samples/pd/sglang/slow-link} (docs/formats/pd.md#simulator) is what its
 * SOURCE.md's command writes today, and it ingests: every request joined across its prefill and
 * decode server, with its own transfer ({@code kv_transfer_source} {@code request}) on the pair
 * {@code truth.csv} names, and {@code pd_pairs} one row per pair.
 */
final class PdSglangSampleTest {
  private static final Path SAMPLE =
      GoldenSamplesTest.SAMPLES.resolve("pd").resolve("sglang").resolve("slow-link");
  private static final List<String> SERVERS =
      List.of("prefill-0", "prefill-1", "decode-0", "decode-1");

  @TempDir Path work;

  @Test
  void sampleIsWhatTheSimulatorWrites() throws IOException {
    Path dir = work.resolve("again");
    run(
        "simulate",
        "--pd",
        "slow-link",
        "--engine",
        "sglang",
        "--requests",
        "40",
        "--out",
        dir.toString());
    List<String> files = new ArrayList<>(List.of("client_timings.csv", "truth.csv"));
    SERVERS.forEach(server -> files.add(server + "/server.log"));
    for (String file : files) {
      assertThat(Files.readString(dir.resolve(file), UTF_8))
          .as(file + " (rewrite the sample with SOURCE.md's command)")
          .isEqualTo(Files.readString(SAMPLE.resolve(file), UTF_8));
    }
  }

  @Test
  void everyRequestIsJoinedAcrossItsPair() throws Exception {
    Path db = work.resolve("pd.duckdb");
    List<String> ingest =
        new ArrayList<>(List.of("ingest", "--db", db.toString(), "--engine", "sglang"));
    SERVERS.forEach(
        server -> ingest.add(server + "=" + SAMPLE.resolve(server).resolve("server.log")));
    run(ingest.toArray(String[]::new));
    run("clients", "--db", db.toString(), SAMPLE.resolve("client_timings.csv").toString());
    run("correlate", "--db", db.toString(), "--out", work.resolve("attribution.csv").toString());

    Map<String, String> truthPairs = new HashMap<>();
    try (Stream<String> lines = Files.lines(SAMPLE.resolve("truth.csv"), UTF_8)) {
      lines
          .skip(1)
          .map(line -> line.split(","))
          .forEach(f -> truthPairs.put(f[0], f[1] + "/" + f[2]));
    }
    Map<String, String> attributed = new HashMap<>();
    try (Connection connection = DriverManager.getConnection("jdbc:duckdb:" + db);
        Statement statement = connection.createStatement();
        ResultSet row =
            statement.executeQuery(
                "SELECT request_id, instance || '/' || decode_instance FROM request_attribution"
                    + " WHERE included AND kv_transfer_source = 'request'")) {
      while (row.next()) {
        attributed.put(row.getString(1), row.getString(2));
      }
    }
    assertThat(attributed).isEqualTo(truthPairs);
    String pairs = run("sql", "--db", db.toString(), "--format", "csv", "pd_pairs");
    assertThat(pairs.lines().skip(1).count()).as(pairs).isEqualTo(4);
  }
}
