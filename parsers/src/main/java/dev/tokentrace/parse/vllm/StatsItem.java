package dev.tokentrace.parse.vllm;

import org.jspecify.annotations.Nullable;

/**
 * The {@code Key: value unit} items of vLLM's periodic stats line, V0
 * (docs/formats/vllm.md#v0-stats-line) and V1 (docs/formats/vllm.md#v1-stats-line). Items this
 * parser does not know are accepted by {@link #OTHER} when they have the same shape, so that a new
 * optional tail item does not turn every stats line into a rejection.
 */
enum StatsItem {
  /** 2023-05 – 2023-06 scheduler line (vLLM PR #90): one throughput, no prompt/generation split. */
  THROUGHPUT("Throughput", " tokens/s", false),
  PROMPT_TPS("Avg prompt throughput", " tokens/s", false),
  GEN_TPS("Avg generation throughput", " tokens/s", false),
  RUNNING("Running", " reqs", true),
  WAITING("Waiting", " reqs", true),
  SWAPPED("Swapped", " reqs", true),
  PENDING("Pending", " reqs", true),
  DEFERRED("Deferred", " reqs", true),
  PREEMPTIONS("Preemptions", "", true),
  GPU_KV("GPU KV cache usage", "%", false),
  CPU_KV("CPU KV cache usage", "%", false),
  PREFIX_HIT("Prefix cache hit rate", "%", false),
  CORRUPTED("Corrupted", " reqs", true),
  EXTERNAL_PREFIX_HIT("External prefix cache hit rate", "%", false),
  MM_HIT("MM cache hit rate", "%", false),
  OTHER("", "", false);

  private static final StatsItem[] KNOWN = values();

  /** Units an unknown item may carry, longest first. */
  private static final String[] OTHER_UNITS = {
    " tokens/s", " tokens", " reqs", " ms", "%", " GB/s/GPU", " TF/s/GPU"
  };

  private final String label;
  private final String unit;
  private final boolean integer;

  StatsItem(String label, String unit, boolean integer) {
    this.label = label;
    this.unit = unit;
    this.integer = integer;
  }

  String label() {
    return label;
  }

  boolean integer() {
    return integer;
  }

  /** The item whose label is exactly {@code text[from, to)}; {@link #OTHER} for an unknown one. */
  static StatsItem of(String text, int from, int to) {
    int length = to - from;
    for (StatsItem item : KNOWN) {
      if (item != OTHER && item.label.length() == length && text.startsWith(item.label, from)) {
        return item;
      }
    }
    return OTHER;
  }

  /** The unit that follows the value at {@code at}, or null when the expected unit is missing. */
  @Nullable String unitAt(String text, int at) {
    if (this != OTHER) {
      return text.startsWith(unit, at) ? unit : null;
    }
    for (String candidate : OTHER_UNITS) {
      if (text.startsWith(candidate, at)) {
        return candidate;
      }
    }
    return "";
  }
}
