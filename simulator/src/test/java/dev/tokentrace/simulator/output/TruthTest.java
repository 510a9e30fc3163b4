package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tokentrace.measure.ClientCsv;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * truth.csv adds up exactly per the formulas of docs/design.md#attribution and agrees with the
 * client CSV.
 */
final class TruthTest {
  private static final String ISO_MICROS = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{6}Z";

  @TempDir Path temp;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "baseline",
        "concurrency-sweep",
        "prefill-bound",
        "network-bound",
        "client-queue-bound",
        "preemption",
        "warmup",
        "retries",
        "heartbeats"
      })
  void componentsAddUpToWhatTheClientSaw(String scenario) {
    SimRuns.write(temp, scenario, "--requests", "60");

    List<Map<String, String>> truth = SimRuns.csv(temp.resolve("truth.csv"));
    assertThat(SimRuns.lines(temp.resolve("truth.csv")).get(0)).isEqualTo(TruthWriter.HEADER);
    for (Map<String, String> row : truth) {
      assertThat(row.get("start_ts")).matches(ISO_MICROS);
      if (!row.get("status").equals("ok")) {
        assertThat(row.get("status")).isEqualTo("timeout");
        continue;
      }
      long clientQueue = SimRuns.micros(row.get("client_queue_ms"));
      long queue = SimRuns.micros(row.get("queue_ms"));
      long prefill = SimRuns.micros(row.get("prefill_ms"));
      long decode = SimRuns.micros(row.get("decode_ms"));
      long networkTtft = SimRuns.micros(row.get("network_ttft_ms"));
      long network = SimRuns.micros(row.get("network_ms"));
      assertThat(SimRuns.micros(row.get("ttft_ms")))
          .isEqualTo(clientQueue + networkTtft + queue + prefill);
      assertThat(SimRuns.micros(row.get("e2e_ms")))
          .isEqualTo(clientQueue + network + queue + prefill + decode);
      assertThat(networkTtft).isPositive();
      assertThat(network).isPositive();
      assertThat(row.get("dominant"))
          .isEqualTo(dominant(clientQueue, network, queue, prefill, decode));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"retries", "heartbeats", "client-queue-bound", "warmup"})
  void clientCsvHasOneRowPerRequestWithWhatTheClientReported(String scenario) {
    SimRuns.write(temp, scenario, "--requests", "60");

    Map<String, Map<String, String>> finals = new HashMap<>();
    for (Map<String, String> row : SimRuns.csv(temp.resolve("truth.csv"))) {
      if (row.get("final").equals("true")) {
        assertThat(finals.put(row.get("request_id"), row)).isNull();
      }
    }
    List<Map<String, String>> client = SimRuns.csv(temp.resolve("client_timings.csv"));
    assertThat(SimRuns.lines(temp.resolve("client_timings.csv")).get(0))
        .isEqualTo(ClientCsv.HEADER);
    assertThat(client).hasSize(finals.size());
    for (Map<String, String> row : client) {
      Map<String, String> truth = finals.get(row.get("request_id"));
      assertThat(row.get("start_ts")).isEqualTo(truth.get("start_ts")).matches(ISO_MICROS);
      assertThat(row.get("ttft_ms")).isEqualTo(truth.get("reported_ttft_ms"));
      assertThat(row.get("e2e_ms")).isEqualTo(truth.get("e2e_ms"));
      assertThat(row.get("output_tokens")).isEqualTo(truth.get("reported_output_tokens"));
      assertThat(row.get("client_queue_ms")).isEqualTo(truth.get("client_queue_ms"));
      assertThat(row.get("status")).isEqualTo(truth.get("status"));
      assertThat(row.get("warmup")).isEqualTo(truth.get("warmup"));
    }
  }

  private static String dominant(
      long clientQueue, long network, long queue, long prefill, long decode) {
    long[] values = {clientQueue, network, queue, prefill, decode};
    String[] names = {"client_queue", "network", "queue", "prefill", "decode"};
    int best = 0;
    for (int i = 1; i < values.length; i++) {
      if (values[i] > values[best]) {
        best = i;
      }
    }
    return names[best];
  }
}
