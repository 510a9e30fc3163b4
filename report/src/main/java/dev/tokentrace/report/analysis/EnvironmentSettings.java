package dev.tokentrace.report.analysis;

import dev.tokentrace.report.model.ReportData;
import dev.tokentrace.report.model.ReportEvidence;
import dev.tokentrace.report.model.ServerSettings;
import dev.tokentrace.report.model.Text;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The environment the method asks a report to state, per server instance, read from its {@code
 * server_config} rows (report/environment_config): engine and version, model, precision and
 * quantization, parallelism, batch and length limits, chunked prefill, prefix caching, speculative
 * decoding, KV-cache size and GPUs, each with the engine's key and the line it came from; and what
 * its logs do not say, with how to record it. Engines name settings differently ({@code
 * max_num_seqs}, {@code max_running_requests}, {@code max_batch_size}); each setting lists the keys
 * that mean it (docs/formats/*.md, "Startup configuration lines"). A resolved value (engine config,
 * limits line) wins over the launch argument it came from, which may be unset ({@code None}). Pure.
 */
final class EnvironmentSettings {
  /** A setting the report states, with the keys that carry it in order of preference. */
  enum Setting {
    VERSION("engine version", "version"),
    MODEL("model", "model", "model_path", "served_model_name"),
    PRECISION("precision", "dtype", "weight_dtype"),
    QUANTIZATION("quantization", "quantization", "quant_algo"),
    KV_CACHE_DTYPE("KV-cache dtype", "kv_cache_dtype", "kv_cache_dtype_allocated"),
    TENSOR_PARALLEL("tensor parallel", "tensor_parallel_size", "tp_size"),
    PIPELINE_PARALLEL("pipeline parallel", "pipeline_parallel_size", "pp_size"),
    DATA_PARALLEL("data parallel", "data_parallel_size", "dp_size"),
    MAX_SEQUENCES(
        "max concurrent sequences",
        "max_num_seqs",
        "max_running_requests",
        "max_batch_size",
        "max_num_requests"),
    MAX_STEP_TOKENS(
        "max tokens per step", "max_num_batched_tokens", "max_num_tokens", "max_prefill_tokens"),
    MAX_LENGTH(
        "max sequence length", "max_model_len", "max_seq_len", "context_len", "context_length"),
    CHUNKED_PREFILL(
        "chunked prefill",
        "chunked_prefill_enabled",
        "enable_chunked_prefill",
        "chunked_prefill_size",
        "enable_chunked_context"),
    PREFIX_CACHING(
        "prefix caching",
        "enable_prefix_caching",
        "disable_radix_cache",
        "enable_block_reuse",
        "enable_kv_cache_reuse"),
    SPECULATIVE(
        "speculative decoding", "speculative_config", "speculative_algorithm", "speculative_model"),
    KV_CACHE(
        "KV-cache size",
        "gpu_kv_cache_tokens",
        "max_total_num_tokens",
        "kv_cache_tokens",
        "num_gpu_blocks"),
    GPUS("GPUs"),
    GPU_MODEL("GPU model and driver");

    final String label;
    final List<String> keys;

    Setting(String label, String... keys) {
      this.label = label;
      this.keys = List.of(keys);
    }
  }

  /** A stated setting: its value as the report shows it, the key and the line it came from. */
  record Item(Setting setting, String value, String key, String source) {}

  /** A setting the logs do not state, and how to get it recorded next time. */
  record Unknown(Setting setting, Text how) {}

  /** One instance's environment. {@code changed}: keys that had more than one value. */
  record Instance(
      String engine,
      String instance,
      List<Item> items,
      List<Unknown> unknown,
      List<String> changed) {
    @Nullable Item item(Setting setting) {
      return items.stream().filter(i -> i.setting() == setting).findFirst().orElse(null);
    }
  }

  /** Values that mean "not set" in launch arguments. */
  private static final List<String> UNSET = List.of("None", "null", "", "-1", "auto");

  private EnvironmentSettings() {}

  /** Every instance of the report's database with its settings, as the report states them. */
  static List<ServerSettings> of(ReportData data) {
    return of(data.evidence().instances(), data.evidence().config()).stream()
        .map(EnvironmentSettings::stated)
        .toList();
  }

  private static ServerSettings stated(Instance instance) {
    return new ServerSettings(
        instance.engine(),
        instance.instance(),
        instance.items().stream()
            .map(
                item ->
                    new ServerSettings.Item(
                        item.setting().label, item.value(), item.key(), item.source()))
            .toList(),
        instance.unknown().stream()
            .map(gap -> new ServerSettings.Unknown(gap.setting().label, gap.how()))
            .toList(),
        instance.changed());
  }

  /** Every instance of {@code instances} with its settings; instances without rows too. */
  static List<Instance> of(
      List<ReportEvidence.Instance> instances, List<ReportEvidence.ConfigRow> config) {
    Map<String, String> engines = new LinkedHashMap<>();
    instances.forEach(i -> engines.put(i.instance(), i.engine()));
    config.forEach(row -> engines.putIfAbsent(row.instance(), row.engine()));
    List<Instance> out = new ArrayList<>();
    engines.forEach(
        (instance, engine) ->
            out.add(
                instance(
                    engine,
                    instance,
                    config.stream().filter(row -> row.instance().equals(instance)).toList())));
    return out;
  }

  static Instance instance(String engine, String instance, List<ReportEvidence.ConfigRow> rows) {
    List<Item> items = new ArrayList<>();
    List<Unknown> unknown = new ArrayList<>();
    for (Setting setting : Setting.values()) {
      Optional<Item> item = setting == Setting.GPUS ? gpus(rows) : item(setting, rows);
      if (item.isPresent()) {
        items.add(item.get());
      } else {
        unknown.add(new Unknown(setting, UnknownHints.how(engine, setting, rows.isEmpty())));
      }
    }
    TreeSet<String> changed = new TreeSet<>();
    rows.stream()
        .filter(row -> row.distinctValues() > 1 && isSetting(row.section()))
        .forEach(row -> changed.add(row.key()));
    return new Instance(engine, instance, items, unknown, List.copyOf(changed));
  }

  /** Sections that hold settings (not measurements such as free memory per rank). */
  static boolean isSetting(String section) {
    return !section.equals("gpu") && !section.equals("weights") && !section.equals("kv_cache");
  }

  private static Optional<Item> item(Setting setting, List<ReportEvidence.ConfigRow> rows) {
    for (String key : setting.keys) {
      ReportEvidence.ConfigRow row = preferred(rows, key);
      if (row == null) {
        continue;
      }
      String value = display(setting, key, row.value(), rows);
      if (value != null) {
        return Optional.of(new Item(setting, value, key, source(row)));
      }
    }
    return Optional.empty();
  }

  /** The row of {@code key}: a resolved section's latest before the launch arguments'. */
  static ReportEvidence.@Nullable ConfigRow preferred(
      List<ReportEvidence.ConfigRow> rows, String key) {
    ReportEvidence.ConfigRow args = null;
    ReportEvidence.ConfigRow resolved = null;
    for (ReportEvidence.ConfigRow row : rows) {
      if (!row.key().equals(key)) {
        continue;
      }
      if (row.section().equals("args")) {
        args = later(args, row);
      } else {
        resolved = later(resolved, row);
      }
    }
    if (resolved != null && !UNSET.contains(resolved.value())) {
      return resolved;
    }
    return args != null ? args : resolved;
  }

  private static ReportEvidence.ConfigRow later(
      ReportEvidence.@Nullable ConfigRow a, ReportEvidence.ConfigRow b) {
    if (a == null || a.lastTs() == null) {
      return b;
    }
    return b.lastTs() != null && b.lastTs().isAfter(a.lastTs()) ? b : a;
  }

  /** The value as the report shows it, or null when it says nothing (unset). */
  private static @Nullable String display(
      Setting setting, String key, String raw, List<ReportEvidence.ConfigRow> rows) {
    String value = raw.startsWith("torch.") ? raw.substring("torch.".length()) : raw;
    boolean unset = UNSET.contains(value);
    switch (setting) {
      case QUANTIZATION:
        return unset ? "none" : value;
      case SPECULATIVE:
        return unset ? "off" : value;
      case PRECISION:
        return unset ? null : value; // dtype 'auto': the loaded weights' dtype says more
      case CHUNKED_PREFILL:
        if (key.equals("chunked_prefill_size")) {
          return value.equals("-1") ? "off" : unset ? null : "on, chunks of " + value + " tokens";
        }
        return unset ? null : onOff(value, false);
      case PREFIX_CACHING:
        return unset ? null : onOff(value, key.startsWith("disable"));
      case KV_CACHE:
        return unset ? null : kvCache(key, value, rows);
      default:
        return unset ? null : value;
    }
  }

  private static String onOff(String value, boolean inverted) {
    String lower = value.toLowerCase(Locale.ROOT);
    if (lower.equals("true") || lower.equals("false")) {
      return lower.equals("true") != inverted ? "on" : "off";
    }
    return value;
  }

  private static String kvCache(String key, String value, List<ReportEvidence.ConfigRow> rows) {
    String text = key.equals("num_gpu_blocks") ? value + " blocks" : value + " tokens";
    ReportEvidence.ConfigRow gib = preferred(rows, "kv_cache_gib");
    if (gib != null) {
      text += " (" + gib.value() + " GiB)";
    }
    ReportEvidence.ConfigRow concurrency = preferred(rows, "max_concurrency");
    ReportEvidence.ConfigRow perRequest = preferred(rows, "max_concurrency_tokens_per_request");
    if (concurrency != null && perRequest != null) {
      text +=
          ", room for " + concurrency.value() + "× requests of " + perRequest.value() + " tokens";
    }
    return text;
  }

  /**
   * What the logs say about GPUs: the ranks that report one (SGLang's per-rank memory line,
   * TensorRT-LLM's rank-to-GPU line), else the product of the parallel sizes, with the platform and
   * free memory where printed. Never a GPU model: no engine log names it.
   */
  private static Optional<Item> gpus(List<ReportEvidence.ConfigRow> rows) {
    List<ReportEvidence.ConfigRow> perRank =
        rows.stream()
            .filter(
                row ->
                    row.key().startsWith("gpu_avail_mem_gb") || row.key().startsWith("gpu_device."))
            .toList();
    List<String> parts = new ArrayList<>();
    String key;
    ReportEvidence.ConfigRow first;
    if (!perRank.isEmpty()) {
      parts.add(
          perRank.size() + (perRank.size() == 1 ? " rank reports a GPU" : " ranks report a GPU"));
      perRank.stream()
          .filter(row -> row.key().startsWith("gpu_avail_mem_gb"))
          .map(ReportEvidence.ConfigRow::value)
          .findFirst()
          .ifPresent(mem -> parts.add(mem + " GB free before loading"));
      key = perRank.get(0).key().replaceAll("\\..*", ".*");
      first = perRank.get(0);
    } else {
      Long product = parallelProduct(rows);
      if (product == null) {
        return Optional.empty();
      }
      parts.add(product + " (tensor × pipeline × data parallel)");
      key = "*_parallel_size";
      first =
          rows.stream()
              .filter(row -> Setting.TENSOR_PARALLEL.keys.contains(row.key()))
              .findFirst()
              .orElse(rows.get(0));
    }
    ReportEvidence.ConfigRow platform = preferred(rows, "platform");
    if (platform != null) {
      parts.add("platform " + platform.value());
    }
    ReportEvidence.ConfigRow mpi = preferred(rows, "mpi_size");
    if (mpi != null) {
      parts.add("MPI size " + mpi.value());
    }
    return Optional.of(new Item(Setting.GPUS, String.join(", ", parts), key, source(first)));
  }

  private static @Nullable Long parallelProduct(List<ReportEvidence.ConfigRow> rows) {
    long product = 1;
    boolean any = false;
    for (Setting setting :
        List.of(Setting.TENSOR_PARALLEL, Setting.PIPELINE_PARALLEL, Setting.DATA_PARALLEL)) {
      Optional<Item> item = item(setting, rows);
      if (item.isPresent()) {
        try {
          product *= Long.parseLong(item.get().value());
          any = true;
        } catch (NumberFormatException e) {
          return null;
        }
      }
    }
    return any ? product : null;
  }

  static String source(ReportEvidence.ConfigRow row) {
    String path = row.sourcePath();
    int slash = path.lastIndexOf('/');
    return (slash < 0 ? path : path.substring(slash + 1)) + ":" + row.sourceLine();
  }
}
