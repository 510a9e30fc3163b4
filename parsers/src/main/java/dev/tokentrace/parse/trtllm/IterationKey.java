package dev.tokentrace.parse.trtllm;

/**
 * The {@code print_iter_log} fields that feed an event (docs/formats/trtllm.md#iteration-log-line),
 * matched in place so that no key of the hot path becomes a String; every other key is {@link
 * #OTHER}.
 */
enum IterationKey {
  ITER("iter"),
  GLOBAL_RANK("global_rank"),
  NUM_SCHEDULED_REQUESTS("num_scheduled_requests"),
  KV_CACHE_UTIL("kv_cache_util"),
  HOST_STEP_TIME("host_step_time"),
  ELAPSED_TIME("elapsed_time"),
  TIMESTAMP("timestamp"),
  CACHED_KV_LEN("cached_kv_len"),
  STATES("states"),
  OTHER("");

  private static final IterationKey[] KNOWN = values();
  final String text;

  IterationKey(String text) {
    this.text = text;
  }

  static IterationKey at(String line, int from, int to) {
    for (IterationKey key : KNOWN) {
      if (key.text.length() == to - from && line.startsWith(key.text, from)) {
        return key;
      }
    }
    return OTHER;
  }
}
