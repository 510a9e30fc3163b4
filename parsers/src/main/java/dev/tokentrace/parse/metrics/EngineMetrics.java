package dev.tokentrace.parse.metrics;

import dev.tokentrace.event.Engine;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The metric names each engine exposes on {@code /metrics} and what tokentrace makes of them
 * (docs/formats/metrics.md#engine-metric-names).
 */
final class EngineMetrics {
  /** A scrape saved by {@code tokentrace scrape}: {@code # tokentrace scrape <ISO instant>}. */
  static final String MARKER = "# tokentrace scrape ";

  /**
   * trtllm-serve ≤ 1.1 wrote these without a prefix
   * (docs/formats/trtllm.md#prometheus-and-tracing).
   */
  private static final Set<String> TRTLLM_UNPREFIXED =
      Set.of(
          "e2e_request_latency_seconds",
          "time_to_first_token_seconds",
          "time_per_output_token_seconds",
          "request_queue_time_seconds",
          "request_success_total");

  /** Gauges: running requests. */
  static final Set<String> RUNNING = Set.of("vllm:num_requests_running", "sglang:num_running_reqs");

  /** Gauges: requests waiting in the scheduler's queue. */
  static final Set<String> WAITING = Set.of("vllm:num_requests_waiting", "sglang:num_queue_reqs");

  /** Gauges: KV-cache use as a fraction (1 = full), under vLLM's old and new names. */
  static final Set<String> KV_FRACTION =
      Set.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage");

  /**
   * SGLang's KV transfer histograms, in the units their names say
   * (docs/formats/pd.md#sglang-kv-transfer-metrics): a transfer's time in ms and its size in MB,
   * observed by the prefill server.
   */
  static final String KV_LATENCY_MS = "sglang:kv_transfer_latency_ms";

  static final String KV_TOTAL_MB = "sglang:kv_transfer_total_mb";

  /** SGLang's counter of failed transfers. */
  static final String KV_FAILED = "sglang:num_transfer_failed_reqs_total";

  /** The histograms above, read into {@code kv_transfer} interval rows, not server histograms. */
  static final Set<String> KV_HISTOGRAMS = Set.of(KV_LATENCY_MS, KV_TOTAL_MB);

  /** Histogram base names (without _bucket/_sum/_count) and the component each measures. */
  static final Map<String, String> HISTOGRAMS =
      Map.ofEntries(
          Map.entry("vllm:request_queue_time_seconds", "queue"),
          Map.entry("vllm:request_prefill_time_seconds", "prefill"),
          Map.entry("vllm:request_decode_time_seconds", "decode"),
          Map.entry("vllm:time_to_first_token_seconds", "ttft"),
          Map.entry("vllm:inter_token_latency_seconds", "itl"),
          Map.entry("vllm:time_per_output_token_seconds", "itl"),
          Map.entry("vllm:request_time_per_output_token_seconds", "tpot"),
          Map.entry("vllm:e2e_request_latency_seconds", "e2e"),
          // a decode server's NIXL reads, post to done (docs/formats/pd.md#vllm-nixl-debug-lines)
          Map.entry("vllm:nixl_xfer_time_seconds", "kv_transfer"),
          Map.entry("sglang:queue_time_seconds", "queue"),
          Map.entry("sglang:time_to_first_token_seconds", "ttft"),
          Map.entry("sglang:inter_token_latency_seconds", "itl"),
          Map.entry("sglang:time_per_output_token_seconds", "itl"),
          Map.entry("sglang:e2e_request_latency_seconds", "e2e"),
          Map.entry("trtllm_request_queue_time_seconds", "queue"),
          Map.entry("trtllm_time_to_first_token_seconds", "ttft"),
          Map.entry("trtllm_time_per_output_token_seconds", "tpot"),
          Map.entry("trtllm_e2e_request_latency_seconds", "e2e"),
          Map.entry("request_queue_time_seconds", "queue"),
          Map.entry("time_to_first_token_seconds", "ttft"),
          Map.entry("time_per_output_token_seconds", "tpot"),
          Map.entry("e2e_request_latency_seconds", "e2e"));

  private EngineMetrics() {}

  /** The engine whose {@code /metrics} uses this metric name, or null. */
  static @Nullable Engine engineOf(String name) {
    if (name.startsWith("vllm:")) {
      return Engine.VLLM;
    }
    if (name.startsWith("sglang:")) {
      return Engine.SGLANG;
    }
    if (name.startsWith("trtllm_") || TRTLLM_UNPREFIXED.contains(baseOf(name))) {
      return Engine.TRTLLM;
    }
    return null;
  }

  /** {@code x} for {@code x_bucket}, {@code x_sum}, {@code x_count}; else the name itself. */
  static String baseOf(String name) {
    for (String suffix : new String[] {"_bucket", "_sum", "_count"}) {
      if (name.endsWith(suffix)) {
        return name.substring(0, name.length() - suffix.length());
      }
    }
    return name;
  }

  /**
   * Whether {@code line} belongs to {@code engine}'s metrics (a sample, its {@code # HELP} / {@code
   * # TYPE}, or a scrape marker), so that the engine's log parser never sees it.
   */
  static boolean claims(Engine engine, String line) {
    // every line of every source passes here first: a line whose first character can begin
    // neither a comment nor a metric name ([a-zA-Z_:], docs/formats/metrics.md) is not looked at
    // further; log headers start with '[', a digit or '{'
    int start = 0;
    while (start < line.length() && Character.isWhitespace(line.charAt(start))) {
      start++;
    }
    if (start == line.length() || !mayStartMetricLine(line.charAt(start))) {
      return false;
    }
    String text = line.strip();
    if (text.startsWith(MARKER)) {
      return true;
    }
    if (text.startsWith("# HELP ") || text.startsWith("# TYPE ")) {
      text = text.substring(7).strip();
    } else if (text.startsWith("#")) {
      return false;
    }
    int end = 0;
    while (end < text.length() && text.charAt(end) != '{' && text.charAt(end) != ' ') {
      end++;
    }
    return end > 0 && engineOf(text.substring(0, end)) == engine;
  }

  private static boolean mayStartMetricLine(char first) {
    return first == '#'
        || (first >= 'a' && first <= 'z')
        || (first >= 'A' && first <= 'Z')
        || first == '_'
        || first == ':';
  }
}
