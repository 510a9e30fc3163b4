package dev.tokentrace.simulator.output;

import dev.tokentrace.simulator.output.VllmBenchWriter.Entry;
import java.util.List;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * The result dict of {@code vllm bench serve} (vllm/benchmarks/serve.py;
 * docs/formats/clients.md#vllm-bench-serve) as {@code json.dump} writes it: Python's default
 * separators, summary metrics in ms, per-request arrays in seconds.
 */
final class VllmBenchJson {
  private final List<@Nullable Entry> entries;
  private final long clientBootUs;

  VllmBenchJson(List<@Nullable Entry> entries, long clientBootUs) {
    this.entries = entries;
    this.clientBootUs = clientBootUs;
  }

  void write(
      StringBuilder json, String date, String requestRate, int concurrency, long durationUs) {
    Stats ttft = new Stats();
    Stats tpot = new Stats();
    Stats itl = new Stats();
    Stats e2el = new Stats();
    long inputTokens = 0;
    long outputTokens = 0;
    int completed = 0;
    for (Entry entry : entries) {
      if (entry == null || !entry.error().isEmpty()) {
        continue;
      }
      completed++;
      inputTokens += entry.promptTokens();
      outputTokens += entry.outputTokens();
      ttft.add(entry.ttftUs() / 1000.0);
      e2el.add(entry.latencyUs() / 1000.0);
      if (entry.outputTokens() > 1) {
        tpot.add((entry.latencyUs() - entry.ttftUs()) / 1000.0 / (entry.outputTokens() - 1));
      }
      for (long gap : entry.gapsUs()) {
        itl.add(gap / 1000.0);
      }
    }
    double seconds = durationUs / 1e6;
    json.append("{\"date\": \"").append(date);
    json.append(
        "\", \"endpoint_type\": \"openai-chat\", \"backend\": \"openai-chat\", \"label\": null,");
    json.append(" \"model_id\": \"/models/Llama-3.1-8B-Instruct\", \"tokenizer_id\":");
    json.append(" \"/models/Llama-3.1-8B-Instruct\", \"num_prompts\": ").append(entries.size());
    json.append(", \"request_rate\": ").append(requestRate.equals("inf") ? "\"inf\"" : requestRate);
    json.append(", \"burstiness\": 1.0, \"max_concurrency\": ");
    json.append(concurrency > 0 ? Integer.toString(concurrency) : "null");
    number(json.append(", \"duration\": "), seconds);
    json.append(", \"completed\": ").append(completed);
    json.append(", \"failed\": ").append(entries.size() - completed);
    json.append(", \"total_input_tokens\": ").append(inputTokens);
    json.append(", \"total_output_tokens\": ").append(outputTokens);
    number(json.append(", \"request_throughput\": "), completed / seconds);
    json.append(", \"request_goodput\": null");
    number(json.append(", \"output_throughput\": "), outputTokens / seconds);
    number(json.append(", \"total_token_throughput\": "), (inputTokens + outputTokens) / seconds);
    summary(json, "ttft", ttft);
    summary(json, "tpot", tpot);
    summary(json, "itl", itl);
    summary(json, "e2el", e2el);
    arrays(json);
    json.append('}');
  }

  private static void summary(StringBuilder json, String name, Stats stats) {
    number(json.append(", \"mean_").append(name).append("_ms\": "), stats.mean());
    number(json.append(", \"median_").append(name).append("_ms\": "), stats.percentile(50));
    number(json.append(", \"std_").append(name).append("_ms\": "), stats.std());
    number(json.append(", \"p99_").append(name).append("_ms\": "), stats.percentile(99));
  }

  private void arrays(StringBuilder json) {
    longs(json, "input_lens", Entry::promptTokens);
    longs(json, "output_lens", Entry::outputTokens);
    seconds(json, "ttfts", Entry::ttftUs);
    json.append(", \"itls\": [");
    for (int i = 0; i < entries.size(); i++) {
      json.append(i == 0 ? "[" : ", [");
      Entry entry = entries.get(i);
      long[] gaps = entry == null ? new long[0] : entry.gapsUs();
      for (int g = 0; g < gaps.length; g++) {
        Decimals.seconds(json.append(g == 0 ? "" : ", "), gaps[g]);
      }
      json.append(']');
    }
    json.append(']');
    seconds(json, "latencies", Entry::latencyUs);
    seconds(json, "start_times", entry -> clientBootUs + entry.startUs());
    seconds(json, "queue_times", Entry::queueUs);
    json.append(", \"generated_texts\": [");
    for (int i = 0; i < entries.size(); i++) {
      json.append(i == 0 ? "\"\"" : ", \"\"");
    }
    json.append("], \"errors\": [");
    for (int i = 0; i < entries.size(); i++) {
      Entry entry = entries.get(i);
      String error = entry == null ? "" : entry.error();
      json.append(i == 0 ? "" : ", ").append('"').append(error).append('"');
    }
    json.append(']');
  }

  private void longs(StringBuilder json, String key, ToLongFunction<Entry> value) {
    json.append(", \"").append(key).append("\": [");
    for (int i = 0; i < entries.size(); i++) {
      json.append(i == 0 ? "" : ", ").append(valueOf(entries.get(i), value));
    }
    json.append(']');
  }

  private void seconds(StringBuilder json, String key, ToLongFunction<Entry> us) {
    json.append(", \"").append(key).append("\": [");
    for (int i = 0; i < entries.size(); i++) {
      Decimals.seconds(json.append(i == 0 ? "" : ", "), valueOf(entries.get(i), us));
    }
    json.append(']');
  }

  private static long valueOf(@Nullable Entry entry, ToLongFunction<Entry> value) {
    return entry == null ? 0 : value.applyAsLong(entry);
  }

  private static void number(StringBuilder json, double value) {
    Decimals.sixDecimals(json, value);
  }
}
