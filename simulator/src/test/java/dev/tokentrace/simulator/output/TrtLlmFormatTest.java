package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TensorRT-LLM lines match docs/formats/trtllm.md#line-prefixes /
 * docs/formats/trtllm.md#iteration-log-line; JSON outputs carry the truth.
 */
final class TrtLlmFormatTest {
  private static final Pattern CPP =
      Pattern.compile(
          "^\\[TensorRT-LLM\\]\\[(TRACE|DEBUG|INFO|WARNING|ERROR)\\](?:\\[(\\d+)\\])? (.*)$");
  private static final Pattern PYTHON =
      Pattern.compile(
          "^\\[(\\d{2})/(\\d{2})/(\\d{4})-(\\d{2}):(\\d{2}):(\\d{2})\\] \\[TRT-LLM\\] (?:\\[MPI_Rank (\\d+)\\]"
              + " |\\[RANK (\\d+)\\] )?\\[([FEWIVD])\\] (?:\\[([A-Za-z0-9_]+)\\](?:\\[RANK (\\d+)\\])? )?(.*)$");
  private static final Pattern BANNER =
      Pattern.compile("^\\[TensorRT-LLM\\] TensorRT-LLM version: (\\S+)$");
  private static final Pattern UVICORN = Pattern.compile("^INFO:     .*$");
  private static final Pattern KEY_VALUE =
      Pattern.compile("(\\w+)\\s*(?:=|:)\\s*([^,{]+|\\{[^}]*\\})");

  /** The PyTorch executor's limits line (docs/formats/trtllm.md#startup-configuration-lines). */
  private static final Pattern LIMITS =
      Pattern.compile(
          "^max_seq_len=\\d+, max_num_requests=\\d+, max_num_tokens=\\d+, max_batch_size=\\d+$");

  private static final Pattern DISCONNECT =
      Pattern.compile("^Address\\(host='[\\d.]+', port=\\d+\\) is disconnected, abort \\d+$");

  @TempDir Path temp;

  @Test
  void everyLogLineMatchesTheDocumentedPatterns() {
    SimRuns.write(temp, "retries", "--engine", "trtllm", "--requests", "40");

    List<String> unmatched = new ArrayList<>();
    int iterations = 0;
    int disconnects = 0;
    int limits = 0;
    for (String line : SimRuns.lines(temp.resolve("server.log"))) {
      Matcher python = PYTHON.matcher(line);
      if (python.matches()) {
        String msg = python.group(12);
        if (msg.startsWith("iter = ")) {
          iterations++;
          Map<String, String> values = new HashMap<>();
          Matcher pair = KEY_VALUE.matcher(msg);
          while (pair.find()) {
            values.put(pair.group(1), pair.group(2).strip());
          }
          assertThat(values)
              .containsKeys(
                  "iter",
                  "global_rank",
                  "rank",
                  "currank_total_requests",
                  "host_step_time",
                  "prev_device_step_time",
                  "timestamp",
                  "num_scheduled_requests",
                  "states");
          assertThat(values.get("host_step_time")).matches("\\d+\\.\\d+ms");
          assertThat(values.get("states"))
              .matches(
                  "\\{'num_ctx_requests': \\d+, 'num_ctx_tokens': \\d+, 'num_generation_tokens': \\d+\\}");
        } else if (LIMITS.matcher(msg).matches()) {
          limits++;
        } else if (DISCONNECT.matcher(msg).matches()) {
          disconnects++;
        } else {
          unmatched.add(line);
        }
      } else if (!CPP.matcher(line).matches()
          && !BANNER.matcher(line).matches()
          && !UVICORN.matcher(line).matches()) {
        unmatched.add(line);
      }
    }

    assertThat(unmatched).isEmpty();
    assertThat(iterations).isPositive();
    assertThat(disconnects).isPositive();
    assertThat(limits).isEqualTo(1);
  }

  @Test
  void perfMetricsCarryTheTrueServerDurationsOnTheSteadyClock() throws IOException {
    SimRuns.write(temp, "concurrency-sweep", "--engine", "trtllm");
    Map<String, Map<String, String>> truth = new HashMap<>();
    for (Map<String, String> row : SimRuns.csv(temp.resolve("truth.csv"))) {
      truth.put(row.get("server_request_id"), row);
    }
    ObjectMapper json = new ObjectMapper();
    int items = 0;
    for (String line : SimRuns.lines(temp.resolve("perf_metrics.jsonl"))) {
      JsonNode scrape = json.readTree(line);
      assertThat(scrape.isArray()).isTrue();
      for (JsonNode item : scrape) {
        items++;
        JsonNode timing = item.at("/perf_metrics/timing_metrics");
        Map<String, String> row = truth.get(item.path("request_id").asText());
        long arrival = micros(timing, "arrival_time");
        long scheduled = micros(timing, "first_scheduled_time");
        long first = micros(timing, "first_token_time");
        assertThat(arrival).isLessThan(1_000_000L * 200_000); // seconds since boot, not epoch
        assertThat(scheduled - arrival).isEqualTo(SimRuns.micros(row.get("queue_ms")));
        assertThat(first - scheduled).isEqualTo(SimRuns.micros(row.get("prefill_ms")));
        assertThat(micros(timing, "last_token_time") - first)
            .isEqualTo(SimRuns.micros(row.get("decode_ms")));
        assertThat(item.at("/perf_metrics/first_iter").asLong())
            .isLessThanOrEqualTo(item.at("/perf_metrics/last_iter").asLong());
      }
    }
    assertThat(items).isEqualTo(truth.size());
  }

  @Test
  void iterationStatsHaveTheCppKeysInAlphabeticalOrder() throws IOException {
    SimRuns.write(temp, "baseline", "--engine", "trtllm", "--requests", "5");
    ObjectMapper json = new ObjectMapper();

    for (String line : SimRuns.lines(temp.resolve("iteration_stats.jsonl"))) {
      JsonNode stats = json.readTree(line);
      List<String> keys = new ArrayList<>();
      for (Iterator<String> names = stats.fieldNames(); names.hasNext(); ) {
        keys.add(names.next());
      }
      assertThat(keys).isSorted();
      assertThat(stats.path("timestamp").asText())
          .matches("\\d{2}-\\d{2}-\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{6}");
      JsonNode batch = stats.path("inflightBatchingStats");
      assertThat(batch.path("numScheduledRequests").asInt())
          .isEqualTo(
              batch.path("numContextRequests").asInt() + batch.path("numGenRequests").asInt());
      assertThat(stats.path("iterLatencyMS").asDouble()).isPositive();
    }
  }

  private static long micros(JsonNode node, String key) {
    return new BigDecimal(node.path(key).asText()).movePointRight(6).longValueExact();
  }
}
