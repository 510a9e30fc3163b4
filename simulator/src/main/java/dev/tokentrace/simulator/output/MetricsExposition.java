package dev.tokentrace.simulator.output;

import dev.tokentrace.event.Engine;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import dev.tokentrace.simulator.StepView;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The simulated engine's {@code /metrics} text: the gauges and latency histograms of the engine it
 * imitates, under that engine's real metric names (docs/formats/metrics.md#engine-metric-names),
 * fed by the model's facts. Served live by {@code simulate --serve} and saved as a scrape series by
 * {@link MetricsScrapeFile} (docs/formats/metrics.md#simulated-scrapes). Each request's times are
 * observed once, when it finishes, as the engines do: queue = first scheduled − arrival, prefill =
 * first token − first scheduled, decode = last token − first token, TTFT, end to end, and vLLM's
 * per-request TPOT (decode / (output tokens − 1), 0 for a single token); the inter-token histograms
 * get the request's mean gap (a real vLLM observes every gap). Thread-safe: the engine thread
 * writes, HTTP threads read, under this object's lock.
 */
public final class MetricsExposition implements SimObserver {
  /** Prometheus text format 0.0.4, as the engines serve it. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private static final double[] BOUNDS = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0
  };

  private static final int QUEUE = 0;
  private static final int PREFILL = 1;
  private static final int DECODE = 2;
  private static final int TTFT = 3;
  private static final int ITL = 4;
  private static final int E2E = 5;
  private static final int TPOT = 6;

  private final Engine engine;
  private final String[] names;
  private final Map<String, Histogram> histograms = new LinkedHashMap<>();
  private int running;
  private int waiting;
  private double kvFraction;

  public MetricsExposition(Engine engine) {
    this.engine = engine;
    this.names = names(engine);
    for (String name : names) {
      if (!name.isEmpty()) {
        histograms.put(name, new Histogram());
      }
    }
  }

  /** queue, prefill, decode, ttft, itl, e2e, tpot names of an engine; empty where it has none. */
  private static String[] names(Engine engine) {
    switch (engine) {
      case VLLM:
        return new String[] {
          "vllm:request_queue_time_seconds",
          "vllm:request_prefill_time_seconds",
          "vllm:request_decode_time_seconds",
          "vllm:time_to_first_token_seconds",
          "vllm:inter_token_latency_seconds",
          "vllm:e2e_request_latency_seconds",
          "vllm:request_time_per_output_token_seconds"
        };
      case SGLANG:
        return new String[] {
          "sglang:queue_time_seconds",
          "",
          "",
          "sglang:time_to_first_token_seconds",
          "sglang:inter_token_latency_seconds",
          "sglang:e2e_request_latency_seconds",
          ""
        };
      default:
        return new String[] {
          "trtllm_request_queue_time_seconds",
          "",
          "",
          "trtllm_time_to_first_token_seconds",
          "trtllm_time_per_output_token_seconds",
          "trtllm_e2e_request_latency_seconds",
          ""
        };
    }
  }

  /** The path the engine serves its metrics on (trtllm-serve: {@code /prometheus/metrics}). */
  public static String path(Engine engine) {
    return engine == Engine.TRTLLM ? "/prometheus/metrics" : "/metrics";
  }

  @Override
  public synchronized void advance(long nowUs, ServerView server) {
    gauges(server);
  }

  @Override
  public synchronized void stepFinished(StepView step, ServerView server) {
    gauges(server);
  }

  private void gauges(ServerView server) {
    running = server.running();
    waiting = server.waiting();
    kvFraction =
        server.kvCapacityBlocks() == 0
            ? 0
            : (double) server.kvUsedBlocks() / server.kvCapacityBlocks();
  }

  @Override
  public synchronized void serverFinished(RequestView request, ServerView server) {
    if (request.firstTokenUs() < 0 || request.firstScheduledUs() < 0) {
      return;
    }
    long arrival = request.serverArrivalUs();
    long end = request.lastTokenUs();
    long decode = end - request.firstTokenUs();
    observe(QUEUE, request.firstScheduledUs() - arrival);
    observe(PREFILL, request.firstTokenUs() - request.firstScheduledUs());
    observe(DECODE, decode);
    observe(TTFT, request.firstTokenUs() - arrival);
    if (request.outputTokens() > 1) {
      observe(ITL, decode / (request.outputTokens() - 1));
    }
    observe(E2E, end - arrival);
    observe(TPOT, request.outputTokens() > 1 ? decode / (request.outputTokens() - 1) : 0);
  }

  private void observe(int component, long micros) {
    Histogram histogram = histograms.get(names[component]);
    if (histogram != null && micros >= 0) {
      histogram.observe(micros / 1e6);
    }
  }

  /** The exposition text of the current state. */
  public synchronized String text() {
    StringBuilder text = new StringBuilder();
    String labels = "model_name=\"sim\"";
    if (engine == Engine.VLLM) {
      gauge(
          text,
          "vllm:num_requests_running",
          "Number of requests in model execution batches.",
          labels,
          running);
      gauge(
          text,
          "vllm:num_requests_waiting",
          "Number of requests waiting to be processed.",
          labels,
          waiting);
      gauge(
          text,
          "vllm:kv_cache_usage_perc",
          "KV-cache usage. 1 means 100 percent usage.",
          labels,
          kvFraction);
    } else if (engine == Engine.SGLANG) {
      gauge(text, "sglang:num_running_reqs", "The number of running requests.", labels, running);
      gauge(
          text,
          "sglang:num_queue_reqs",
          "The number of requests in the waiting queue.",
          labels,
          waiting);
      gauge(text, "sglang:token_usage", "The token usage.", labels, kvFraction);
    } else {
      labels = "";
    }
    for (Map.Entry<String, Histogram> entry : histograms.entrySet()) {
      entry.getValue().write(text, entry.getKey(), labels);
    }
    return text.toString();
  }

  private static void gauge(
      StringBuilder text, String name, String help, String labels, double value) {
    text.append("# HELP ").append(name).append(' ').append(help).append('\n');
    text.append("# TYPE ").append(name).append(" gauge\n");
    text.append(name).append('{').append(labels).append("} ").append(number(value)).append('\n');
  }

  private static String number(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  /** Cumulative bucket counts, sum and count of one histogram. */
  private static final class Histogram {
    private final long[] counts = new long[BOUNDS.length];
    private long count;
    private double sum;

    void observe(double seconds) {
      for (int i = 0; i < BOUNDS.length; i++) {
        if (seconds <= BOUNDS[i]) {
          counts[i]++;
        }
      }
      count++;
      sum += seconds;
    }

    void write(StringBuilder text, String name, String labels) {
      String sep = labels.isEmpty() ? "" : ",";
      text.append("# TYPE ").append(name).append(" histogram\n");
      for (int i = 0; i < BOUNDS.length; i++) {
        text.append(name)
            .append("_bucket{")
            .append(labels)
            .append(sep)
            .append("le=\"")
            .append(String.format(Locale.ROOT, "%s", BOUNDS[i]))
            .append("\"} ")
            .append(counts[i])
            .append('\n');
      }
      text.append(name)
          .append("_bucket{")
          .append(labels)
          .append(sep)
          .append("le=\"+Inf\"} ")
          .append(count)
          .append('\n');
      String braces = labels.isEmpty() ? "" : "{" + labels + "}";
      text.append(name).append("_sum").append(braces).append(' ').append(sum).append('\n');
      text.append(name).append("_count").append(braces).append(' ').append(count).append('\n');
    }
  }
}
