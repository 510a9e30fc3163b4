package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.Numbers;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Prometheus text that landed in a log: Triton's {@code nv_trt_llm_*} gauges ({@code
 * custom_metrics_reporter.cc @ 89ee0f2}, docs/formats/trtllm.md#triton-backend-stats) become one
 * {@code engine_stats} per scrape (active requests, KV blocks used, the iteration's time); they
 * show only the last iteration at scrape time, so no batch step is made of them. Triton's {@code
 * nv_*} histograms are ignored ({@value #RULE}); trtllm-serve's {@code trtllm_*} (2026) and
 * unprefixed (≤ 1.1) ones never get here: {@code Parsers} hands them to the metrics parser
 * (docs/formats/metrics.md#server_histogram). A scrape ends at the first other line or when a gauge
 * repeats. Not thread-safe.
 */
final class PrometheusBlock {
  static final String RULE = "trtllm: prometheus text";

  private static final String[] OUR_PREFIXES = {
    "nv_",
    "trtllm_",
    "request_success_total",
    "e2e_request_latency_seconds",
    "time_to_first_token_seconds",
    "time_per_output_token_seconds",
    "request_queue_time_seconds"
  };

  private final String instance;
  private final Set<String> seen = new HashSet<>();
  private @Nullable SourcePosition first;
  private @Nullable Integer active;
  private @Nullable Double used;
  private @Nullable Double max;
  private @Nullable Double fraction;
  private @Nullable Instant ts;

  PrometheusBlock(String instance) {
    this.instance = instance;
  }

  boolean active() {
    return first != null;
  }

  /** A sample or {@code # HELP}/{@code # TYPE} line of a TensorRT-LLM or Triton metric. */
  static boolean isOurs(String line) {
    String name = line;
    if (line.startsWith("# HELP ") || line.startsWith("# TYPE ")) {
      name = line.substring(7);
    }
    for (String prefix : OUR_PREFIXES) {
      if (name.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  void accept(String line, SourcePosition position, ParseOutput sink) {
    if (line.startsWith("nv_trt_llm_")) {
      if (!sample(line, position, sink)) {
        return;
      }
    }
    sink.ignored(position, RULE);
  }

  /** Emits the scrape collected so far, if it said anything. */
  void flush(ParseOutput sink) {
    SourcePosition at = first;
    Double kvPct = kvUsagePct();
    if (at != null && (active != null || kvPct != null)) {
      sink.event(
          new EngineStats(
              Engine.TRTLLM,
              instance,
              ts,
              at,
              null,
              null,
              null,
              null,
              active,
              null,
              null,
              kvPct,
              null,
              null));
    }
    first = null;
    active = null;
    used = null;
    max = null;
    fraction = null;
    ts = null;
    seen.clear();
  }

  private @Nullable Double kvUsagePct() {
    if (fraction != null) {
      return fraction * 100;
    }
    Double usedBlocks = used;
    Double maxBlocks = max;
    if (usedBlocks == null || maxBlocks == null || maxBlocks == 0) {
      return null;
    }
    return usedBlocks / maxBlocks * 100;
  }

  private boolean sample(String line, SourcePosition position, ParseOutput sink) {
    int open = line.indexOf('{');
    int close = line.indexOf('}');
    int space = close < 0 ? -1 : line.indexOf(' ', close);
    if (open < 0 || close < open || space < 0) {
      return true;
    }
    String labels = line.substring(open + 1, close);
    int valueEnd = line.indexOf(' ', space + 1);
    Double value = Numbers.nonNegative(line, space + 1, valueEnd < 0 ? line.length() : valueEnd);
    if (value == null) {
      sink.rejected(
          Rejection.of(position, Engine.TRTLLM, "prometheus: bad nv_trt_llm sample value", line));
      return false;
    }
    String key = line.substring(0, open) + label(labels, "_type") + label(labels, "_metric");
    if (!seen.add(key)) {
      flush(sink);
      seen.add(key);
    }
    if (first == null) {
      first = position;
    }
    record(line, labels, value);
    return true;
  }

  private void record(String line, String labels, double value) {
    if (line.startsWith("nv_trt_llm_request_metrics{")) {
      if (label(labels, "request_type").equals("active")) {
        active = value <= Integer.MAX_VALUE ? (int) value : null;
      }
    } else if (line.startsWith("nv_trt_llm_kv_cache_block_metrics{")) {
      String type = label(labels, "kv_cache_block_type");
      if (type.equals("used")) {
        used = value;
      } else if (type.equals("max")) {
        max = value;
      } else if (type.equals("fraction")) {
        fraction = value;
      }
    } else if (line.startsWith("nv_trt_llm_general_metrics{")
        && label(labels, "general_type").equals("timestamp")
        && value < 1e17) {
      // µs since the epoch: real UTC time, unlike the local-time log timestamps
      long micros = (long) value;
      ts = Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000);
    }
  }

  /** The value of the first label whose name ends with {@code suffix} (or equals it). */
  private static String label(String labels, String suffix) {
    for (String pair : labels.split(",")) {
      int equals = pair.indexOf('=');
      if (equals > 0 && pair.substring(0, equals).strip().endsWith(suffix)) {
        String value = pair.substring(equals + 1).strip();
        return value.length() >= 2 && value.startsWith("\"")
            ? value.substring(1, value.length() - 1)
            : value;
      }
    }
    return "";
  }
}
