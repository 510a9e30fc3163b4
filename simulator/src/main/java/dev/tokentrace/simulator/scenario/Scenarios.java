package dev.tokentrace.simulator.scenario;

import static dev.tokentrace.simulator.scenario.Parameters.ARRIVAL;
import static dev.tokentrace.simulator.scenario.Parameters.CLIENT_COUNTS_HEARTBEATS;
import static dev.tokentrace.simulator.scenario.Parameters.CLIENT_FILE;
import static dev.tokentrace.simulator.scenario.Parameters.CONCURRENCY;
import static dev.tokentrace.simulator.scenario.Parameters.CONTENTION_AT_S;
import static dev.tokentrace.simulator.scenario.Parameters.CONTENTION_DURATION_S;
import static dev.tokentrace.simulator.scenario.Parameters.CONTENTION_SLOWDOWN;
import static dev.tokentrace.simulator.scenario.Parameters.DOWNLINK_MS;
import static dev.tokentrace.simulator.scenario.Parameters.GATEWAY_DOWNLINK_MS;
import static dev.tokentrace.simulator.scenario.Parameters.GATEWAY_UPLINK_MS;
import static dev.tokentrace.simulator.scenario.Parameters.GPU_TELEMETRY;
import static dev.tokentrace.simulator.scenario.Parameters.HEARTBEAT_S;
import static dev.tokentrace.simulator.scenario.Parameters.KV_CAPACITY_TOKENS;
import static dev.tokentrace.simulator.scenario.Parameters.MAX_BATCH;
import static dev.tokentrace.simulator.scenario.Parameters.MAX_MODEL_LEN;
import static dev.tokentrace.simulator.scenario.Parameters.METRICS_SCRAPE_S;
import static dev.tokentrace.simulator.scenario.Parameters.OUTPUT_TOKENS;
import static dev.tokentrace.simulator.scenario.Parameters.PROMPT_TOKENS;
import static dev.tokentrace.simulator.scenario.Parameters.RATE;
import static dev.tokentrace.simulator.scenario.Parameters.REQUESTS;
import static dev.tokentrace.simulator.scenario.Parameters.RETRIES;
import static dev.tokentrace.simulator.scenario.Parameters.SLOW_NETWORK_AT_S;
import static dev.tokentrace.simulator.scenario.Parameters.SLOW_NETWORK_DURATION_S;
import static dev.tokentrace.simulator.scenario.Parameters.SLOW_NETWORK_EXTRA_MS;
import static dev.tokentrace.simulator.scenario.Parameters.TIMEOUT_S;
import static dev.tokentrace.simulator.scenario.Parameters.UPLINK_MS;
import static dev.tokentrace.simulator.scenario.Parameters.WARMUP_EXTRA_MS;
import static dev.tokentrace.simulator.scenario.Parameters.WARMUP_REQUESTS;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The scenario presets of issue 4. Each names the cause it makes dominant; the numbers are chosen
 * so that cause wins clearly with the default cost model (8 ms decode step, 0.05 ms per prompt
 * token).
 */
public final class Scenarios {
  private static final List<Scenario> ALL =
      List.of(
          new Scenario(
              "baseline",
              "uncontended: one request at a time; compute (prefill + decode) only",
              values(CONCURRENCY, "1", REQUESTS, "100")),
          new Scenario(
              "concurrency-sweep",
              "the seed's 1/4/8/16 sweep on a server that runs 2 requests at once: server"
                  + " queueing takes over above 2 and is the sweep's largest share",
              values(CONCURRENCY, "1,4,8,16", REQUESTS, "64", MAX_BATCH, "2")),
          new Scenario(
              "prefill-bound",
              "long prompts (4k-16k tokens), short answers, one at a time: TTFT grows linearly"
                  + " with prompt length, prefill dominates",
              values(
                  PROMPT_TOKENS,
                  "uniform:4000,16000",
                  OUTPUT_TOKENS,
                  "fixed:8",
                  CONCURRENCY,
                  "1",
                  REQUESTS,
                  "100")),
          new Scenario(
              "decode-bound",
              "long outputs at a high batch: decode dominates and TPOT grows with context",
              values(
                  PROMPT_TOKENS,
                  "lognormal:256,0.3",
                  OUTPUT_TOKENS,
                  "fixed:2048",
                  CONCURRENCY,
                  "64",
                  MAX_BATCH,
                  "64",
                  REQUESTS,
                  "128")),
          new Scenario(
              "network-bound",
              "a far client and a slow-network episode: network dominates short requests",
              values(
                  UPLINK_MS,
                  "lognormal:120,0.2",
                  DOWNLINK_MS,
                  "lognormal:120,0.2",
                  SLOW_NETWORK_AT_S,
                  "20",
                  SLOW_NETWORK_DURATION_S,
                  "20",
                  SLOW_NETWORK_EXTRA_MS,
                  "300",
                  PROMPT_TOKENS,
                  "lognormal:128,0.3",
                  OUTPUT_TOKENS,
                  "fixed:8",
                  CONCURRENCY,
                  "2",
                  REQUESTS,
                  "200")),
          new Scenario(
              "client-queue-bound",
              "open-loop arrivals at 16/s, faster than a 4-slot client semaphore drains even with"
                  + " short outputs: the client's own queue dominates",
              values(
                  ARRIVAL,
                  "poisson",
                  RATE,
                  "16",
                  CONCURRENCY,
                  "4",
                  OUTPUT_TOKENS,
                  "lognormal:128,0.4",
                  REQUESTS,
                  "200")),
          new Scenario(
              "preemption",
              "KV cache too small for the batch: requests are preempted and recomputed",
              values(
                  KV_CAPACITY_TOKENS,
                  "24000",
                  MAX_MODEL_LEN,
                  "8192",
                  CONCURRENCY,
                  "32",
                  PROMPT_TOKENS,
                  "lognormal:512,0.3",
                  OUTPUT_TOKENS,
                  "fixed:1024",
                  REQUESTS,
                  "96")),
          new Scenario(
              "warmup",
              "the first 8 requests pay a 3-s warm-up cost in their prefill step",
              values(
                  WARMUP_REQUESTS,
                  "8",
                  WARMUP_EXTRA_MS,
                  "3000",
                  CONCURRENCY,
                  "4",
                  REQUESTS,
                  "100")),
          new Scenario(
              "retries",
              "an overloaded server and an 11-s client timeout: timed-out requests are retried"
                  + " with the same ID and the server sees them twice",
              values(
                  CONCURRENCY,
                  "16",
                  MAX_BATCH,
                  "4",
                  OUTPUT_TOKENS,
                  "choice:64,256,512",
                  TIMEOUT_S,
                  "11",
                  RETRIES,
                  "2",
                  REQUESTS,
                  "120")),
          new Scenario(
              "heartbeats",
              "a proxy sends SSE heartbeats while requests queue, and the client counts them as"
                  + " tokens: its TTFT is too early and its token counts too high",
              values(
                  CONCURRENCY,
                  "16",
                  MAX_BATCH,
                  "4",
                  HEARTBEAT_S,
                  "1",
                  CLIENT_COUNTS_HEARTBEATS,
                  "true",
                  REQUESTS,
                  "100")),
          new Scenario(
              "gateway-bottleneck",
              "a gateway between a near client and the server adds about 80 ms each way on its"
                  + " leg (a proxy in another region): the gateway-to-engine leg dominates short"
                  + " requests; the gateway's access logs split network into its two legs",
              values(
                  GATEWAY_UPLINK_MS,
                  "lognormal:80,0.2",
                  GATEWAY_DOWNLINK_MS,
                  "lognormal:80,0.2",
                  PROMPT_TOKENS,
                  "lognormal:128,0.3",
                  OUTPUT_TOKENS,
                  "fixed:8",
                  CONCURRENCY,
                  "2",
                  REQUESTS,
                  "100")),
          new Scenario(
              "production",
              "production: no benchmark client, the gateway's access log is the only client-side"
                  + " timing; an overloaded server (16 users, 4 slots) makes server queueing"
                  + " dominant, seen from the gateway",
              values(
                  GATEWAY_UPLINK_MS,
                  "lognormal:2,0.2",
                  GATEWAY_DOWNLINK_MS,
                  "lognormal:2,0.2",
                  CLIENT_FILE,
                  "false",
                  CONCURRENCY,
                  "16",
                  MAX_BATCH,
                  "4",
                  OUTPUT_TOKENS,
                  "lognormal:64,0.3",
                  REQUESTS,
                  "100")),
          new Scenario(
              "contention",
              "another process takes 60 percent of the GPU and 12 GB of its memory from 20 s to 50 s:"
                  + " every engine step then lasts 2.5 times longer, so the requests it overlaps"
                  + " decode 2.5 times slower; the GPU telemetry (gpu/) shows the co-tenant and"
                  + " gpu_truth.csv marks the requests it hit; /metrics is saved every 5 s"
                  + " (metrics.prom)",
              values(
                  GPU_TELEMETRY,
                  "true",
                  METRICS_SCRAPE_S,
                  "5",
                  CONTENTION_AT_S,
                  "20",
                  CONTENTION_DURATION_S,
                  "30",
                  CONTENTION_SLOWDOWN,
                  "2.5",
                  CONCURRENCY,
                  "4",
                  OUTPUT_TOKENS,
                  "lognormal:128,0.3",
                  REQUESTS,
                  "200")));

  private Scenarios() {}

  private static Map<String, String> values(String... pairs) {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      values.put(pairs[i], pairs[i + 1]);
    }
    return values;
  }

  public static List<Scenario> all() {
    return ALL;
  }

  /**
   * The scenario of that name.
   *
   * @throws IllegalArgumentException listing the known names
   */
  public static Scenario named(String name) {
    List<String> names = new ArrayList<>();
    for (Scenario scenario : ALL) {
      if (scenario.name().equals(name)) {
        return scenario;
      }
      names.add(scenario.name());
    }
    throw new IllegalArgumentException(
        "unknown scenario '" + name + "' (known: " + String.join(", ", names) + ")");
  }

  /**
   * Defaults, then the scenario's values (if a name is given), then explicit values on top.
   *
   * @throws IllegalArgumentException for an unknown scenario or parameter name
   */
  public static Map<String, String> effective(
      @Nullable String scenario, Map<String, String> explicit) {
    Map<String, String> values = Parameters.defaults();
    if (scenario != null && !scenario.isBlank()) {
      values.putAll(named(scenario).values());
    }
    for (Map.Entry<String, String> entry : explicit.entrySet()) {
      if (!values.containsKey(entry.getKey())) {
        throw new IllegalArgumentException("unknown parameter " + entry.getKey());
      }
      values.put(entry.getKey(), entry.getValue());
    }
    return values;
  }
}
