package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each client format's file is valid JSON in the shape of docs/formats/clients.md and says what the
 * client saw: times from the moment the request was sent, joinable to truth.csv by its ID.
 */
final class ClientFormatsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] RUN = {
    "--requests",
    "40",
    "--concurrency",
    "4,16",
    "--max-batch",
    "4",
    "--timeout-s",
    "4",
    "--output-tokens",
    "choice:8,64,512"
  };

  @TempDir Path temp;

  private Map<String, Map<String, String>> finals() {
    Map<String, Map<String, String>> rows = new HashMap<>();
    for (Map<String, String> row : SimRuns.csv(temp.resolve("truth.csv"))) {
      if (row.get("final").equals("true")) {
        rows.put(row.get("request_id"), row);
      }
    }
    return rows;
  }

  /** What a client that starts its clock when sending measures: truth minus the client queue. */
  private static long sentToUs(Map<String, String> row, String column) {
    return SimRuns.micros(row.get(column)) - SimRuns.micros(row.get("client_queue_ms"));
  }

  @Test
  void aiperfRecordsCarryTheSentIdAndChunkLatencies() throws IOException {
    SimRuns.write(temp, null, concat(RUN, "--client-format", "aiperf"));
    Map<String, Map<String, String>> truth = finals();

    List<String> lines = SimRuns.lines(temp.resolve("profile_export.jsonl"));
    assertThat(lines).hasSize(truth.size());
    int errors = 0;
    for (String line : lines) {
      JsonNode record = JSON.readTree(line);
      Map<String, String> row = truth.get(record.at("/metadata/x_request_id").asText());
      assertThat(record.at("/metadata/x_request_id").asText())
          .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
      if (row.get("status").equals("timeout")) {
        errors++;
        assertThat(record.path("error").path("type").asText()).isEqualTo("TimeoutError");
        continue;
      }
      JsonNode metrics = record.path("metrics");
      assertThat(millis(metrics.at("/time_to_first_token/value")))
          .isEqualTo(sentToUs(row, "ttft_ms"));
      assertThat(millis(metrics.at("/request_latency/value"))).isEqualTo(sentToUs(row, "e2e_ms"));
      assertThat(metrics.at("/inter_chunk_latency/value").size())
          .isEqualTo(Integer.parseInt(row.get("output_tokens")) - 1);
      long start = record.at("/metadata/request_start_ns").asLong();
      long end = record.at("/metadata/request_end_ns").asLong();
      assertThat((end - start) / 1000).isEqualTo(sentToUs(row, "e2e_ms"));
    }
    assertThat(errors).isPositive();
  }

  @Test
  void vllmBenchArraysAreInRequestOrderPerLevel() throws IOException {
    SimRuns.write(temp, null, concat(RUN, "--client-format", "vllm-bench"));
    Map<String, Map<String, String>> truth = finals();
    Map<String, String> prefixByLevel = new HashMap<>();
    Pattern id = Pattern.compile("^(bench-[0-9a-f]{8}-)(\\d+)$");
    for (Map<String, String> row : truth.values()) {
      Matcher matcher = id.matcher(row.get("request_id"));
      assertThat(matcher.matches()).isTrue();
      prefixByLevel.put(row.get("concurrency"), matcher.group(1));
    }

    List<Path> files = list("openai-chat-infqps-concurrency");
    assertThat(files).hasSize(2);
    for (Path file : files) {
      JsonNode result = JSON.readTree(file.toFile());
      String level = result.path("max_concurrency").asText();
      int prompts = result.path("num_prompts").asInt();
      for (String array :
          List.of(
              "input_lens",
              "output_lens",
              "ttfts",
              "itls",
              "latencies",
              "start_times",
              "queue_times",
              "errors")) {
        assertThat(result.path(array).size()).as(array).isEqualTo(prompts);
      }
      for (int i = 0; i < prompts; i++) {
        Map<String, String> row = truth.get(prefixByLevel.get(level) + i);
        if (row.get("status").equals("ok")) {
          assertThat(seconds(result.path("ttfts").get(i))).isEqualTo(sentToUs(row, "ttft_ms"));
          assertThat(seconds(result.path("latencies").get(i))).isEqualTo(sentToUs(row, "e2e_ms"));
          assertThat(result.path("errors").get(i).asText()).isEmpty();
        } else {
          assertThat(result.path("errors").get(i).asText()).isNotEmpty();
        }
      }
    }
  }

  @Test
  void guidellmKeepsTheServersResponseId() throws IOException {
    SimRuns.write(temp, null, concat(RUN, "--client-format", "guidellm"));
    Map<String, Map<String, String>> truth = finals();

    JsonNode benchmarks =
        JSON.readTree(temp.resolve("benchmarks.json").toFile()).path("benchmarks");
    assertThat(benchmarks).hasSize(2);
    int successful = 0;
    for (JsonNode benchmark : benchmarks) {
      for (JsonNode item : benchmark.at("/requests/successful")) {
        successful++;
        String responseId = item.path("response_id").asText();
        assertThat(responseId).matches("chatcmpl-[0-9a-f]{16}");
        Map<String, String> row = truth.get(responseId);
        assertThat(millis(item.path("time_to_first_token_ms"))).isEqualTo(sentToUs(row, "ttft_ms"));
        assertThat(seconds(item.path("request_latency"))).isEqualTo(sentToUs(row, "e2e_ms"));
      }
      assertThat(benchmark.at("/requests/errored").size()).isPositive();
    }
    assertThat(successful)
        .isEqualTo(truth.values().stream().filter(r -> r.get("status").equals("ok")).count());
  }

  @Test
  void genaiPerfChunksCarryTheServerIdInTheSseText() throws IOException {
    SimRuns.write(temp, null, concat(RUN, "--client-format", "genai-perf", "--engine", "sglang"));
    Map<String, Map<String, String>> truth = finals();
    Pattern sseId = Pattern.compile("^data: \\{\"id\":\"([^\"]+)\"");

    JsonNode experiments =
        JSON.readTree(temp.resolve("profile_export.json").toFile()).path("experiments");
    assertThat(experiments).hasSize(2);
    for (JsonNode experiment : experiments) {
      assertThat(experiment.path("window_boundaries")).hasSize(2);
      for (JsonNode request : experiment.path("requests")) {
        JsonNode outputs = request.path("response_outputs");
        if (outputs.isEmpty()) {
          continue; // timed out
        }
        Matcher matcher = sseId.matcher(outputs.get(0).path("response").asText());
        assertThat(matcher.find()).isTrue();
        Map<String, String> row = truth.get(matcher.group(1));
        long start = request.path("timestamp").asLong();
        long first = request.path("response_timestamps").get(0).asLong();
        assertThat((first - start) / 1000).isEqualTo(sentToUs(row, "ttft_ms"));
        assertThat(outputs).hasSize(Integer.parseInt(row.get("output_tokens")) + 1);
        assertThat(outputs.get(outputs.size() - 1).path("response").asText())
            .isEqualTo("data: [DONE]\n\n");
      }
    }
  }

  private List<Path> list(String prefix) throws IOException {
    try (Stream<Path> files = Files.list(temp)) {
      return files.filter(f -> f.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }

  private static long millis(JsonNode value) {
    return new BigDecimal(value.asText()).movePointRight(3).longValueExact();
  }

  private static long seconds(JsonNode value) {
    return new BigDecimal(value.asText()).movePointRight(6).longValueExact();
  }

  private static String[] concat(String[] base, String... more) {
    String[] all = new String[base.length + more.length];
    System.arraycopy(base, 0, all, 0, base.length);
    System.arraycopy(more, 0, all, base.length, more.length);
    return all;
  }
}
