package dev.tokentrace.parse.sglang;

import dev.tokentrace.parse.ConfigFacts;
import dev.tokentrace.parse.ConfigFacts.Fact;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * SGLang's startup lines that say how the server is configured
 * (docs/formats/sglang.md#startup-configuration-lines): {@code server_args=ServerArgs(...)} (every
 * launch argument, with its default), the scheduler's limits line {@code max_total_num_tokens=N,
 * chunked_prefill_size=N, max_prefill_tokens=N, max_running_requests=N, context_len=N[,
 * available_gpu_mem=X GB]}, the weights' class and dtype ({@code Load weight end. type=...,
 * dtype=...}), the GPU memory available before loading ({@code Load weight begin. avail mem=X GB},
 * one per rank, so one per GPU) and the KV-cache allocation ({@code KV Cache is allocated. [dtype:
 * D, ]#tokens: N, K size: X GB, V size: Y GB}).
 */
final class StartupConfig {
  private static final String SERVER_ARGS = "server_args=ServerArgs(";
  private static final String LIMITS = "max_total_num_tokens=";
  private static final String WEIGHT_BEGIN = "Load weight begin. ";
  private static final String WEIGHT_END = "Load weight end. ";
  private static final String KV_CACHE = "KV Cache is allocated. ";

  private static final Pattern AVAIL_MEM = Pattern.compile("avail mem=([\\d.]+) ?GB");
  private static final Pattern MODEL_CLASS = Pattern.compile("type=(\\w+)");
  private static final Pattern WEIGHT_DTYPE = Pattern.compile("dtype=([\\w.]+)");
  private static final Pattern KV_DTYPE = Pattern.compile("dtype: ([\\w.]+)");
  private static final Pattern KV_TOKENS = Pattern.compile("#tokens: (\\d+)");
  private static final Pattern K_SIZE = Pattern.compile("K size: ([\\d.]+) GB");
  private static final Pattern V_SIZE = Pattern.compile("V size: ([\\d.]+) GB");

  private StartupConfig() {}

  /** The facts of a startup message at {@code start}, or null when it is not one of these lines. */
  static ConfigFacts.@Nullable Facts facts(String line, int start, @Nullable String rank) {
    List<Fact> facts = new ArrayList<>();
    String section;
    if (line.startsWith(SERVER_ARGS, start)) {
      section = "args";
      facts.addAll(ConfigFacts.keywordArgs(line, start + SERVER_ARGS.length()));
    } else if (line.startsWith(LIMITS, start)) {
      section = "limits";
      facts.addAll(ConfigFacts.keywordArgs(line, start));
    } else if (line.startsWith(WEIGHT_BEGIN, start)) {
      section = "gpu";
      Matcher mem = AVAIL_MEM.matcher(line).region(start, line.length());
      if (mem.find()) {
        String gpu = rank == null ? "" : "." + rank.replace(' ', '_');
        facts.add(new Fact("gpu_avail_mem_gb" + gpu, mem.group(1)));
      }
    } else if (line.startsWith(WEIGHT_END, start)) {
      section = "weights";
      add(facts, "model_class", MODEL_CLASS, line, start);
      add(facts, "weight_dtype", WEIGHT_DTYPE, line, start);
    } else if (line.startsWith(KV_CACHE, start)) {
      section = "kv_cache";
      add(facts, "kv_cache_dtype_allocated", KV_DTYPE, line, start);
      add(facts, "kv_cache_tokens", KV_TOKENS, line, start);
      add(facts, "kv_cache_k_size_gb", K_SIZE, line, start);
      add(facts, "kv_cache_v_size_gb", V_SIZE, line, start);
    } else {
      return null;
    }
    return new ConfigFacts.Facts(section, facts);
  }

  private static void add(List<Fact> facts, String key, Pattern pattern, String line, int start) {
    Matcher m = pattern.matcher(line).region(start, line.length());
    if (m.find()) {
      facts.add(new Fact(key, m.group(1)));
    }
  }
}
