package dev.tokentrace.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every vLLM line matches the regexes of docs/formats/vllm.md#line-patterns; OTLP spans carry the
 * truth.
 */
final class VllmFormatTest {
  private static final Pattern ANSI = Pattern.compile("\u001B\\[[0-9;]*m");

  // docs/formats/vllm.md#line-patterns record header: optional process prefix, level, MM-DD
  // HH:MM:SS, optional '[', file:line] (independent of the parser's hand-written scanner)
  private static final Pattern HEADER =
      Pattern.compile(
          "^(?<pre>.*?)(?:\\((?<proc>[^)]*?) pid=(?<pid>\\d+)[^)]*\\) )?(?<level>DEBUG|INFO|WARNING|ERROR|CRITICAL)"
              + " (?<mon>\\d{2})-(?<day>\\d{2}) (?<time>\\d{2}:\\d{2}:\\d{2}) \\[?(?<src>[\\w./\\-]+):(?<line>\\d+)\\]"
              + " (?<msg>.*)$");
  private static final Pattern UVICORN =
      Pattern.compile(
          "^(?:\\((?<proc>[^)]*?) pid=(?<pid>\\d+)[^)]*\\) )?(?<lvl>INFO|WARNING|ERROR):\\s+(?<client>\\S+) -"
              + " \"(?<method>[A-Z]+) (?<path>\\S+) HTTP/(?<ver>[\\d.]+)\" (?<status>\\d{3})(?: (?<reason>.*))?$");
  private static final Pattern UVICORN_LIFECYCLE =
      Pattern.compile(
          "^(?:\\([^)]*? pid=\\d+\\) )?INFO:     (?:Started server process \\[\\d+\\]|Waiting for application startup\\.|Application startup complete\\.|Uvicorn running on .*)$");
  private static final Pattern STATS_V0 =
      Pattern.compile(
          "^Avg prompt throughput: (?<pt>[\\d.]+) tokens/s, Avg generation throughput: (?<gt>[\\d.]+) tokens/s,"
              + " Running: (?<run>\\d+) reqs, Swapped: (?<swp>\\d+) reqs, Pending: (?<pend>\\d+) reqs,"
              + " GPU KV cache usage: (?<gpu>[\\d.]+)%, CPU KV cache usage: (?<cpu>[\\d.]+)%\\.?\\s*$");
  private static final Pattern PREFIX_V0 =
      Pattern.compile("^Prefix cache hit rate: GPU: (?<g>[\\d.]+|nan)%, CPU: (?<c>[\\d.]+|nan)%$");
  private static final Pattern STATS_V1 =
      Pattern.compile(
          "^(?:Engine (?<eng>\\d{3}): |(?<neng>\\d+) Engines Aggregated: )?Avg prompt throughput: (?<pt>[\\d.]+)"
              + " tokens/s, Avg generation throughput: (?<gt>[\\d.]+) tokens/s, Running: (?<run>\\d+) reqs,"
              + " Waiting: (?<wait>\\d+) reqs(?<tail>.*)$");
  private static final Pattern TAIL_ITEM =
      Pattern.compile(
          "^(?<key>[A-Za-z][A-Za-z ]*?): (?<val>[\\d.]+|nan)(?<unit>%| reqs| tokens/s)?\\.?$");
  private static final Pattern RECEIVED =
      Pattern.compile(
          "^Received request (?<id>.+?): (?:prompt: |params: |prefix_pos: )(?<rest>.*)$");
  private static final Pattern ADDED = Pattern.compile("^Added request (?<id>.+)\\.$");
  private static final Pattern ABORTED = Pattern.compile("^Aborted request (?<id>.+)\\.$");
  private static final Pattern ABORTED_V1 =
      Pattern.compile("^Aborted request\\(s\\) (?<ids>.+)\\.$");
  private static final Pattern PREEMPTED =
      Pattern.compile(
          "^Sequence group (?<id>\\S+) is preempted by PreemptionMode\\.(?<mode>RECOMPUTE|SWAP) mode because"
              + " there is not enough KV cache space\\..*total_num_cumulative_preemption=(?<n>\\d+)$");
  private static final Pattern ITERATION =
      Pattern.compile(
          "^Iteration\\((?<i>\\d+)\\): (?<ctxReq>\\d+) context requests, (?<ctxTok>\\d+) context tokens,"
              + " (?<genReq>\\d+) generation requests, (?<genTok>\\d+) generation tokens, iteration elapsed"
              + " time: (?<ms>[\\d.]+) ms$");
  private static final Pattern STARTUP =
      Pattern.compile(
          "^(?:# GPU blocks: \\d+, # CPU blocks: \\d+|GPU KV cache size: [\\d,]+ tokens|Maximum concurrency for"
              + " [\\d,]+ tokens per request: [\\d.]+x|Chunked prefill is enabled with"
              + " max_num_batched_tokens=\\d+\\.|vLLM API server version \\d+\\.\\d+\\.\\d+"
              + "|non-default args: \\{'model': .*\\}|args: Namespace\\(.*\\)"
              + "|Initializing (?:a V1|an) LLM engine \\(v[\\d.]+\\) with config: model='.*)$");
  private static final Pattern ADDED_ID =
      Pattern.compile("^(?:\\d+_)?(?:chat)?cmpl-(?<key>.+?)(?:-\\d+)?(?:-[0-9a-f]{8})?$");

  @TempDir Path temp;

  @ParameterizedTest
  @EnumSource(value = EngineFormat.class, mode = EnumSource.Mode.MATCH_ANY, names = "VLLM_.*")
  void everyLogLineMatchesTheDocumentedPatterns(EngineFormat format) {
    SimRuns.write(
        temp,
        "preemption",
        "--engine",
        "vllm",
        "--format-version",
        format.version(),
        "--iteration-log",
        "true",
        "--timeout-s",
        "30",
        "--retries",
        "1",
        "--requests",
        "64",
        "--prefix-caching",
        "true",
        "--shared-prefix-tokens",
        "64");

    List<String> unmatched = new ArrayList<>();
    Map<String, Integer> kinds = new HashMap<>();
    for (String raw : SimRuns.lines(temp.resolve("server.log"))) {
      String kind = kind(ANSI.matcher(raw).replaceAll(""), format);
      if (kind == null) {
        unmatched.add(raw);
      } else {
        kinds.merge(kind, 1, Integer::sum);
      }
    }

    assertThat(unmatched).isEmpty();
    assertThat(kinds).containsKeys("stats", "received", "added", "access", "startup");
    if (format == EngineFormat.VLLM_0_7) {
      assertThat(kinds).containsKeys("preempted", "prefix");
    }
    if (format == EngineFormat.VLLM_0_16) {
      assertThat(kinds).containsKey("iteration");
    }
  }

  private static String kind(String line, EngineFormat format) {
    if (UVICORN.matcher(line).matches()) {
      return "access";
    }
    if (UVICORN_LIFECYCLE.matcher(line).matches()) {
      return "lifecycle";
    }
    Matcher header = HEADER.matcher(line);
    if (!header.matches()) {
      return null;
    }
    boolean v1 = format != EngineFormat.VLLM_0_7;
    assertThat(header.group("pre")).isEmpty();
    assertThat(header.group("proc") != null).as(line).isEqualTo(v1);
    String msg = header.group("msg");
    if (v1 ? isV1Stats(msg, format) : STATS_V0.matcher(msg).matches()) {
      return "stats";
    }
    if (!v1 && PREFIX_V0.matcher(msg).matches()) {
      return "prefix";
    }
    Matcher added = ADDED.matcher(msg);
    if (added.matches()) {
      String id = added.group("id");
      assertThat(ADDED_ID.matcher(id).matches()).as(id).isTrue();
      assertThat(dev.tokentrace.event.RequestKeys.hasEngineSuffix(id))
          .isEqualTo(format == EngineFormat.VLLM_0_16);
      return "added";
    }
    if (RECEIVED.matcher(msg).matches()) {
      assertThat(msg.contains("prompt: ")).isEqualTo(format != EngineFormat.VLLM_0_16);
      return "received";
    }
    if ((v1 ? ABORTED_V1 : ABORTED).matcher(msg).matches()) {
      return "aborted";
    }
    if (!v1 && PREEMPTED.matcher(msg).matches()) {
      return "preempted";
    }
    if (format == EngineFormat.VLLM_0_16 && ITERATION.matcher(msg).matches()) {
      return "iteration";
    }
    return STARTUP.matcher(msg).matches() ? "startup" : null;
  }

  private static boolean isV1Stats(String msg, EngineFormat format) {
    Matcher stats = STATS_V1.matcher(msg);
    if (!stats.matches()) {
      return false;
    }
    assertThat(stats.group("eng")).isEqualTo("000");
    for (String item : stats.group("tail").substring(2).split(", ")) {
      Matcher tail = TAIL_ITEM.matcher(item);
      assertThat(tail.matches()).as(item).isTrue();
      if (tail.group("key").equals("Preemptions")) {
        assertThat(format).isEqualTo(EngineFormat.VLLM_0_16);
      }
    }
    return true;
  }

  @Test
  void otlpSpansCarryTheTrueServerDurations() throws IOException {
    SimRuns.write(temp, "concurrency-sweep", "--engine", "vllm", "--format-version", "0.16");
    Map<String, Map<String, String>> truth = new HashMap<>();
    for (Map<String, String> row : SimRuns.csv(temp.resolve("truth.csv"))) {
      truth.put(row.get("server_request_id"), row);
    }
    ObjectMapper json = new ObjectMapper();
    int spans = 0;
    for (String line : SimRuns.lines(temp.resolve("otlp.jsonl"))) {
      JsonNode resource = json.readTree(line).path("resourceSpans").get(0);
      assertThat(resource.path("scopeSpans").get(0).path("scope").path("name").asText())
          .isEqualTo("vllm.tracing.otel");
      for (JsonNode span : resource.path("scopeSpans").get(0).path("spans")) {
        spans++;
        assertThat(span.path("name").asText()).isEqualTo("llm_request");
        assertThat(span.path("kind").asInt()).isEqualTo(2);
        assertThat(span.path("traceId").asText()).matches("[0-9a-f]{32}");
        assertThat(span.path("startTimeUnixNano").isTextual()).isTrue();
        Map<String, JsonNode> attributes = new HashMap<>();
        span.path("attributes")
            .forEach(a -> attributes.put(a.path("key").asText(), a.path("value")));
        Map<String, String> row =
            truth.get(attributes.get("gen_ai.request.id").path("stringValue").asText());
        assertThat(micros(attributes, "gen_ai.latency.time_in_queue"))
            .isEqualTo(SimRuns.micros(row.get("queue_ms")));
        assertThat(micros(attributes, "gen_ai.latency.time_in_model_prefill"))
            .isEqualTo(SimRuns.micros(row.get("prefill_ms")));
        assertThat(micros(attributes, "gen_ai.latency.time_in_model_decode"))
            .isEqualTo(SimRuns.micros(row.get("decode_ms")));
        assertThat(attributes.get("gen_ai.usage.completion_tokens").path("intValue").asText())
            .isEqualTo(row.get("output_tokens"));
      }
    }
    assertThat(spans).isEqualTo(truth.size());
  }

  @Test
  void v0SpansHaveQueueTtftAndE2eOnly() throws IOException {
    SimRuns.write(
        temp, "baseline", "--engine", "vllm", "--format-version", "0.7", "--requests", "10");
    JsonNode span =
        new ObjectMapper()
            .readTree(SimRuns.lines(temp.resolve("otlp.jsonl")).get(0))
            .at("/resourceSpans/0/scopeSpans/0/spans/0");
    List<String> keys = new ArrayList<>();
    span.path("attributes").forEach(a -> keys.add(a.path("key").asText()));

    assertThat(keys)
        .contains(
            "gen_ai.latency.time_in_queue",
            "gen_ai.latency.time_to_first_token",
            "gen_ai.latency.e2e")
        .doesNotContain("gen_ai.latency.time_in_model_prefill");
  }

  private static long micros(Map<String, JsonNode> attributes, String key) {
    return new java.math.BigDecimal(attributes.get(key).path("doubleValue").asText())
        .movePointRight(6)
        .longValueExact();
  }
}
