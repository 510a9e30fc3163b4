package dev.tokentrace.cli;

import static dev.tokentrace.cli.GatewayLiveIT.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.correlate.client.ClientLoadResult;
import dev.tokentrace.correlate.client.ClientLoadSettings;
import dev.tokentrace.correlate.client.ClientTimingLoader;
import dev.tokentrace.store.Database;
import dev.tokentrace.store.DatabaseSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The black-box files the simulator writes for a gateway scenario
 * (docs/formats/gateways.md#simulated-gateway) are what the product's readers read: each of {@code
 * samples/vllm/v0.16-gateway-bottleneck}'s NGINX and Envoy logs, JMeter JTL and wrk rows is
 * recognized by {@code clients --format auto}, every line a row, and each row's duration is the
 * truth's within the tool's resolution (whole ms: 1 ms): the gateway's for the access logs, the
 * client's from send to last byte for JMeter and wrk.
 */
final class GatewaySampleFilesTest {
  private static final Path SCENARIO =
      GoldenSamplesTest.SAMPLES.resolve("vllm").resolve("v0.16-gateway-bottleneck");

  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "client_nginx_access.log, nginx, gateway",
    "client_envoy_access.log, envoy, gateway",
    "client_jmeter.jtl, jmeter, client",
    "client_wrk.csv, wrk, client"
  })
  void everyLineIsARowWithTheTrueDuration(String file, String format, String view)
      throws Exception {
    Path path = SCENARIO.resolve(file);
    long lines = Files.readAllLines(path).stream().filter(line -> !line.isBlank()).count();
    long header = file.endsWith(".log") ? 0 : 1;
    Path db = dir.resolve("files.duckdb");
    try (Database database = Database.open(DatabaseSettings.from(db, null, 1))) {
      ClientLoadResult loaded =
          new ClientTimingLoader(database, Clock.systemUTC())
              .load(ClientLoadSettings.from(List.of(path), "auto", "files", null, "test", null));
      assertThat(loaded.messages()).as(loaded.summary()).isEmpty();
      assertThat(loaded.rows()).isEqualTo(lines - header);
    }
    List<Map<String, Object>> stored =
        rows(db, "SELECT client_format, vantage, request_id, e2e_ms FROM client_timing");
    Map<String, double[]> truth = truth();
    for (Map<String, Object> row : stored) {
      assertThat(row.get("client_format")).isEqualTo(format);
      assertThat(row.get("vantage")).isEqualTo(view);
      double[] expected = truth.get((String) row.get("request_id"));
      assertThat(expected).as("truth of %s", row.get("request_id")).isNotNull();
      double e2e = ((Number) row.get("e2e_ms")).doubleValue();
      assertThat(Math.abs(e2e - (view.equals("gateway") ? expected[0] : expected[1])))
          .as("%s %s e2e %.3f", file, row.get("request_id"), e2e)
          .isLessThanOrEqualTo(1.0);
    }
  }

  /** Request ID to {gateway e2e, client send-to-last-byte} in ms. */
  private static Map<String, double[]> truth() throws Exception {
    Map<String, double[]> gateway = new HashMap<>();
    List<String> lines = Files.readAllLines(SCENARIO.resolve(SampleScenarios.GATEWAY_TRUTH));
    List<String> head = List.of(lines.get(0).split(","));
    for (String line : lines.subList(1, lines.size())) {
      String[] fields = line.split(",", -1);
      gateway.put(
          fields[head.indexOf("request_id")],
          new double[] {Double.parseDouble(fields[head.indexOf("gateway_e2e_ms")]), 0});
    }
    lines = Files.readAllLines(SCENARIO.resolve("truth.csv"));
    head = List.of(lines.get(0).split(","));
    for (String line : lines.subList(1, lines.size())) {
      String[] fields = line.split(",", -1);
      double[] row = gateway.get(fields[head.indexOf("request_id")]);
      row[1] =
          Double.parseDouble(fields[head.indexOf("e2e_ms")])
              - Double.parseDouble(fields[head.indexOf("client_queue_ms")]);
    }
    return gateway;
  }
}
