package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every SGLang line matches docs/formats/sglang.md#other-scheduler-lines /
 * docs/formats/sglang.md#request-lines; the metrics export carries the truth.
 */
final class SglangFormatTest {
  private static final Pattern ENVELOPE =
      Pattern.compile(
          "^(?:\\((?<actor>\\w+) pid=(?<pid>\\d+)(?:, ip=(?<ip>[\\d.]+))?\\) )?\\[?(?<ts>(?:\\d{4}-\\d{2}-\\d{2}"
              + " )?\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{3})?)(?<ranks>(?: (?:DP|PP|ATTN_CP|MOE_DP|TP|EP)\\d+)*)\\]"
              + " (?<msg>.*)$");
  private static final Pattern BATCH =
      Pattern.compile(
          "^(?<kind>Prefil|Prefill|Decode) batch(?:\\(mixed #running-req: (?<mixed>\\d+)\\))?(?:"
              + " \\[(?<iter>\\d+)\\])?[.,] (?<body>.*?),? ?$");
  private static final Pattern PAIR = Pattern.compile("(?:^|, )(?<key>[^:,]+): (?<val>[^,]*)");
  private static final Pattern RETRACT =
      Pattern.compile(
          "^(?:KV cache pool is full\\. Retract requests\\.|Decode out of memory happened\\.)"
              + " #retracted_reqs: (\\d+), #new_token_ratio: ([\\d.]+) -> ([\\d.]+)$");
  private static final Pattern RECEIVE =
      Pattern.compile("^Receive: obj=GenerateReqInput\\(rid='([^']*)'.*\\)$");
  private static final Pattern FINISH =
      Pattern.compile(
          "^Finish: obj=GenerateReqInput\\(rid='([^']*)'.*\\), out=\\{'meta_info': \\{.*\\}\\}$");
  private static final Pattern E2E = Pattern.compile("'e2e_latency': ([0-9.eE+-]+)");
  private static final Pattern QUEUE_TIME = Pattern.compile("'queue_time': ([0-9.eE+-]+)");
  private static final Pattern ACCESS =
      Pattern.compile(
          "^INFO:     \\S+ - \"POST (?:/generate|/v1/chat/completions) HTTP/1\\.1\" 200 OK$");
  private static final Pattern STARTUP =
      Pattern.compile(
          "^(?:Load weight begin\\. avail mem=[\\d.]+ GB|KV Cache is allocated\\. #tokens: \\d+, K size: [\\d.]+"
              + " GB, V size: [\\d.]+ GB|max_total_num_tokens=\\d+, chunked_prefill_size=-?\\d+,"
              + " max_prefill_tokens=\\d+, max_running_requests=\\d+, context_len=\\d+,"
              + " available_gpu_mem=[\\d.]+ GB|The server is fired up and ready to roll!"
              + "|server_args=ServerArgs\\(model_path='.*\\)"
              + "|Load weight end\\. type=\\w+, dtype=[\\w.]+, avail mem=[\\d.]+ GB, mem usage=[\\d.]+"
              + " GB\\.)$");

  @TempDir Path temp;

  @ParameterizedTest
  @CsvSource({"0.4.5, 1, false", "0.5.6, 1, false", "0.5.6, 2, true"})
  void everyLogLineMatchesTheDocumentedPatterns(String version, int tp, boolean millis) {
    SimRuns.write(
        temp,
        "preemption",
        "--engine",
        "sglang",
        "--format-version",
        version,
        "--tp-size",
        Integer.toString(tp),
        "--log-millis",
        Boolean.toString(millis),
        "--requests",
        "48",
        "--timeout-s",
        "6",
        "--retries",
        "1");
    boolean v04 = version.equals("0.4.5");

    List<String> unmatched = new ArrayList<>();
    Map<String, Integer> kinds = new HashMap<>();
    for (String line : SimRuns.lines(temp.resolve("server.log"))) {
      Matcher envelope = ENVELOPE.matcher(line);
      String kind = envelope.matches() ? kind(envelope, v04, tp, millis) : null;
      if (kind == null) {
        unmatched.add(line);
      } else {
        kinds.merge(kind, 1, Integer::sum);
      }
    }

    assertThat(unmatched).isEmpty();
    assertThat(kinds)
        .containsKeys("Prefill", "Decode", "retract", "receive", "finish", "access", "startup");
  }

  private static String kind(Matcher envelope, boolean v04, int tp, boolean millis) {
    String msg = envelope.group("msg");
    String ranks = envelope.group("ranks");
    boolean hasMillis = envelope.group("ts").contains(".");
    Matcher batch = BATCH.matcher(msg);
    if (batch.matches()) {
      assertThat(ranks).isEqualTo(v04 || tp > 1 ? " TP0" : "");
      assertThat(hasMillis).isEqualTo(millis);
      assertThat(msg)
          .startsWith(batch.group("kind") + (v04 ? " batch. " : " batch, "))
          .endsWith(", ");
      Map<String, String> pairs = pairs(batch.group("body"));
      if (batch.group("kind").equals("Prefill")) {
        assertThat(pairs)
            .containsOnlyKeys(
                "#new-seq",
                "#new-token",
                "#cached-token",
                "token usage",
                "#running-req",
                "#queue-req");
      } else {
        assertThat(pairs)
            .containsKeys(
                "#running-req", "#token", "token usage", "gen throughput (token/s)", "#queue-req");
        assertThat(pairs.containsKey("cuda graph")).isEqualTo(!v04);
      }
      assertThat(pairs.get("token usage")).matches("\\d\\.\\d{2}");
      return batch.group("kind");
    }
    if (RETRACT.matcher(msg).matches()) {
      assertThat(msg.startsWith("Decode out of memory")).isEqualTo(v04);
      return "retract";
    }
    if (RECEIVE.matcher(msg).matches()) {
      assertThat(ranks).isEmpty();
      return "receive";
    }
    if (FINISH.matcher(msg).matches()) {
      assertThat(ranks).isEmpty();
      assertThat(E2E.matcher(msg).find()).isTrue();
      assertThat(QUEUE_TIME.matcher(msg).find()).isEqualTo(!v04 && !msg.contains("'abort'"));
      return "finish";
    }
    if (ACCESS.matcher(msg).matches()) {
      assertThat(hasMillis).isFalse();
      return "access";
    }
    return STARTUP.matcher(msg).matches() ? "startup" : null;
  }

  private static Map<String, String> pairs(String body) {
    Map<String, String> pairs = new HashMap<>();
    Matcher pair = PAIR.matcher(body);
    while (pair.find()) {
      pairs.put(pair.group("key"), pair.group("val"));
    }
    return pairs;
  }

  @Test
  void decodeLinesComeEvery40DecodeIterations() {
    SimRuns.write(
        temp, "baseline", "--engine", "sglang", "--requests", "5", "--output-tokens", "fixed:401");

    long decodeLines =
        SimRuns.lines(temp.resolve("server.log")).stream()
            .filter(l -> l.contains("Decode batch"))
            .count();

    assertThat(decodeLines).isEqualTo(5 * 400 / SglangLogWriter.DECODE_LOG_INTERVAL);
  }

  @Test
  void metricsExportCarriesTheTrueServerDurations() throws IOException {
    SimRuns.write(temp, "concurrency-sweep", "--engine", "sglang", "--format-version", "0.5.6");
    Map<String, Map<String, String>> truth = new HashMap<>();
    for (Map<String, String> row : SimRuns.csv(temp.resolve("truth.csv"))) {
      truth.put(row.get("server_request_id"), row);
    }
    ObjectMapper json = new ObjectMapper();
    List<Path> files;
    try (Stream<Path> list = Files.list(temp.resolve("metrics"))) {
      files = list.sorted().toList();
    }
    assertThat(files)
        .isNotEmpty()
        .allSatisfy(
            f ->
                assertThat(f.getFileName().toString())
                    .matches("sglang-request-metrics-\\d{8}_\\d{2}\\.log"));
    int records = 0;
    for (Path file : files) {
      for (String line : SimRuns.lines(file)) {
        JsonNode record = json.readTree(line);
        records++;
        assertThat(json.readTree(record.path("request_parameters").asText()).path("rid").asText())
            .isEqualTo(record.path("id").asText());
        Map<String, String> row = truth.get(record.path("id").asText());
        long queue = micros(record, "queue_time");
        long ttft = micros(record, "prefill_finished_ts") - micros(record, "request_received_ts");
        long decode = micros(record, "decode_finished_ts") - micros(record, "prefill_finished_ts");
        assertThat(queue).isEqualTo(SimRuns.micros(row.get("queue_ms")));
        assertThat(ttft - queue).isEqualTo(SimRuns.micros(row.get("prefill_ms")));
        assertThat(decode).isEqualTo(SimRuns.micros(row.get("decode_ms")));
        assertThat(micros(record, "e2e_latency")).isEqualTo(ttft + decode);
      }
    }
    assertThat(records).isEqualTo(truth.size());
  }

  private static long micros(JsonNode record, String key) {
    return new BigDecimal(record.path(key).asText()).movePointRight(6).longValueExact();
  }
}
