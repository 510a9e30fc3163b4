package dev.tokentrace.simulator.live;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.tokentrace.event.Engine;
import dev.tokentrace.simulator.RequestView;
import dev.tokentrace.simulator.ServerView;
import dev.tokentrace.simulator.SimObserver;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The simulated server's {@code GET /metrics}: the gauges and latency histograms of the engine it
 * imitates, under that engine's real metric names (docs/formats/metrics.md#engine-metric-names),
 * fed by the live engine's facts. Each request's times are observed once, when it finishes; the
 * inter-token histograms get the request's mean gap (a real vLLM observes every gap). Thread-safe:
 * the engine thread writes, HTTP threads read, under this object's lock.
 */
final class MetricsEndpoint implements SimObserver, HttpHandler {
  /** Prometheus text format 0.0.4, as the engines serve it. */
  static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private static final double[] BOUNDS = {
    0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0,
    20.0, 40.0, 80.0
  };

  private final Engine engine;
  private final Map<String, Histogram> histograms = new LinkedHashMap<>();
  private int running;
  private int waiting;
  private double kvFraction;

  MetricsEndpoint(Engine engine) {
    this.engine = engine;
    for (String name : names()) {
      histograms.put(name, new Histogram());
    }
  }

  /** queue, prefill, decode, ttft, itl, e2e names of this engine; null where it has none. */
  private String[] names() {
    switch (engine) {
      case VLLM:
        return new String[] {
          "vllm:request_queue_time_seconds",
          "vllm:request_prefill_time_seconds",
          "vllm:request_decode_time_seconds",
          "vllm:time_to_first_token_seconds",
          "vllm:inter_token_latency_seconds",
          "vllm:e2e_request_latency_seconds"
        };
      case SGLANG:
        return new String[] {
          "sglang:queue_time_seconds",
          "",
          "",
          "sglang:time_to_first_token_seconds",
          "sglang:inter_token_latency_seconds",
          "sglang:e2e_request_latency_seconds"
        };
      default:
        return new String[] {
          "trtllm_request_queue_time_seconds",
          "",
          "",
          "trtllm_time_to_first_token_seconds",
          "trtllm_time_per_output_token_seconds",
          "trtllm_e2e_request_latency_seconds"
        };
    }
  }

  @Override
  public synchronized void advance(long nowUs, ServerView server) {
    gauges(server);
  }

  @Override
  public synchronized void stepFinished(dev.tokentrace.simulator.StepView step, ServerView server) {
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
    String[] names = names();
    long arrival = request.serverArrivalUs();
    long end = request.lastTokenUs();
    long decode = end - request.firstTokenUs();
    observe(names[0], request.firstScheduledUs() - arrival);
    observe(names[1], request.firstTokenUs() - request.firstScheduledUs());
    observe(names[2], decode);
    observe(names[3], request.firstTokenUs() - arrival);
    if (request.outputTokens() > 1) {
      observe(names[4], decode / (request.outputTokens() - 1));
    }
    observe(names[5], end - arrival);
  }

  private void observe(String name, long micros) {
    Histogram histogram = histograms.get(name);
    if (histogram != null && micros >= 0) {
      histogram.observe(micros / 1e6);
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      Replies.send(exchange, 200, CONTENT_TYPE, text().getBytes(UTF_8));
    }
  }

  /** The exposition text of the current state. */
  synchronized String text() {
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
      if (!entry.getKey().isEmpty()) {
        entry.getValue().write(text, entry.getKey(), labels);
      }
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
