package dev.tokentrace.parse.trtllm;

import dev.tokentrace.parse.Numbers;
import dev.tokentrace.parse.Timestamps;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The PyExecutor {@code print_iter_log} line of all four generations
 * (docs/formats/trtllm.md#iteration-log-line), a hot path: a hand-written {@code key = value, }
 * scanner, no regex, no per-field objects.
 *
 * <pre>
 * A ≤ 2025-04:  iter = 7, global_rank = 0, rank = 0, currank_total_requests = 3/3,
 *               elapsed_time = 0.021s, timestamp = 2025-04-01 10:00:00, states = {...}
 * B 2025-04-28: ... timestamp = ..., num_scheduled_requests: 3, states = {...}       (PR #3914)
 * C 2025-08-14: ... host_step_time = 12.5ms, prev_device_step_time = N/A, ...         (PR #6906)
 * D 2026-05:    iter = 7, global_rank = 0, rank = 0, num_scheduled_requests = 3,
 *               kv_cache_util = 0.125, currank_total_requests = 3/3, host_step_time = 12.5ms,
 *               prev_device_step_time = 11.9ms, timestamp = ..., states = {...}      (PR #14206)
 * </pre>
 *
 * Later optional fields ({@code cached_kv_len}, PR #14734; {@code num_active}..., PR #16323) and
 * any unknown field are accepted. {@code states} is the model engine's dict repr; its {@code
 * num_generation_tokens} includes CUDA-graph padding and draft tokens, so it is no request count.
 * Not thread-safe. (Over 200 lines only because the four generations are quoted above.)
 */
final class IterationLines {
  static final String PREFIX = "iter = ";

  private final Timestamps.Local times;
  private @Nullable String failure;

  IterationLines(Timestamps.Local times) {
    this.times = times;
  }

  /** Why the last {@link #parse} returned null. */
  @Nullable String failure() {
    return failure;
  }

  /**
   * The step for one message starting with {@link #PREFIX}, or null with {@link #failure} set. The
   * returned step has no phase yet when nothing was scheduled.
   */
  @Nullable StepDraft parse(String message, @Nullable Instant headerTs, @Nullable String rank) {
    failure = null;
    Fields fields = new Fields();
    fields.step.ts = headerTs;
    fields.step.rank = rank;
    int length = message.length();
    int at = 0;
    while (at < length) {
      int keyEnd = at;
      while (keyEnd < length && isKeyChar(message.charAt(keyEnd))) {
        keyEnd++;
      }
      int valueStart = separatorEnd(message, keyEnd);
      if (keyEnd == at || valueStart < 0) {
        return fail("iteration line: malformed field");
      }
      IterationKey key = IterationKey.at(message, at, keyEnd);
      int valueEnd;
      if (key == IterationKey.STATES) {
        valueEnd = message.indexOf('}', valueStart) + 1;
        if (valueEnd == 0 || message.charAt(valueStart) != '{') {
          return fail("iteration line: bad 'states' value");
        }
        if (!states(message, valueStart + 1, valueEnd - 1, fields)) {
          return null;
        }
      } else {
        valueEnd = message.indexOf(", ", valueStart);
        valueEnd = valueEnd < 0 ? length : valueEnd;
        if (!field(key, message, valueStart, valueEnd, fields)) {
          return fail("iteration line: bad '" + key.text + "' value");
        }
      }
      at = valueEnd;
      if (at < length) {
        if (!message.startsWith(", ", at)) {
          return fail("iteration line: malformed field");
        }
        at += 2;
      }
    }
    return fields.finish() ? fields.step : fail(fields.problem);
  }

  private boolean field(IterationKey key, String text, int from, int to, Fields fields) {
    StepDraft step = fields.step;
    switch (key) {
      case ITER:
        step.iteration = Numbers.nonNegativeLong(text, from, to);
        return step.iteration != null;
      case GLOBAL_RANK:
        fields.globalRank = Numbers.countOrNull(text, from, to);
        return fields.globalRank != null;
      case NUM_SCHEDULED_REQUESTS:
        fields.scheduled = Numbers.countOrNull(text, from, to);
        return fields.scheduled != null;
      case KV_CACHE_UTIL:
        return Numbers.isNotAvailable(text, from, to)
            || (step.tokenUsage = Numbers.nonNegative(text, from, to)) != null;
      case HOST_STEP_TIME:
        step.stepMs = Numbers.withUnit(text, from, to, "ms", 1.0);
        return step.stepMs != null;
      case ELAPSED_TIME:
        step.stepMs = Numbers.withUnit(text, from, to, "s", 1000.0);
        return step.stepMs != null;
      case TIMESTAMP:
        fields.lineTs = times.trtllmIterationLog(text, from, to);
        return fields.lineTs != null;
      case CACHED_KV_LEN:
        step.cachedTokens = Numbers.countOrNull(text, from, to);
        return step.cachedTokens != null;
      default:
        // rank, currank_total_requests, prev_device_step_time, num_active, ...: no event field
        return true;
    }
  }

  /** {@code 'num_ctx_requests': 2, 'num_ctx_tokens': 16384, 'num_generation_tokens': 0}. */
  private boolean states(String text, int from, int to, Fields fields) {
    fields.states = true;
    int at = from;
    while (at < to) {
      int keyEnd = text.indexOf('\'', at + 1);
      if (text.charAt(at) != '\''
          || keyEnd < 0
          || keyEnd >= to
          || !text.startsWith(": ", keyEnd + 1)) {
        fail("iteration line: bad 'states' value");
        return false;
      }
      int valueStart = keyEnd + 3;
      int valueEnd = text.indexOf(", ", valueStart);
      valueEnd = valueEnd < 0 || valueEnd > to ? to : valueEnd;
      if (!state(text, at + 1, keyEnd, valueStart, valueEnd, fields)) {
        fail("iteration line: bad '" + text.substring(at + 1, keyEnd) + "' value");
        return false;
      }
      at = valueEnd == to ? to : valueEnd + 2;
    }
    return true;
  }

  /** One {@code 'key': value} of states, the key matched in place (no String per key). */
  private static boolean state(
      String text, int keyFrom, int keyTo, int from, int to, Fields fields) {
    if (isKey(text, keyFrom, keyTo, "num_ctx_requests")) {
      fields.step.ctxRequests = Numbers.countOrNull(text, from, to);
      return fields.step.ctxRequests != null;
    }
    if (isKey(text, keyFrom, keyTo, "num_ctx_tokens")) {
      fields.step.newTokens = Numbers.countOrNull(text, from, to);
      return fields.step.newTokens != null;
    }
    if (isKey(text, keyFrom, keyTo, "num_generation_tokens")) {
      fields.step.genTokens = Numbers.countOrNull(text, from, to);
      return fields.step.genTokens != null;
    }
    if (isKey(text, keyFrom, keyTo, "cached_kv_tokens")) {
      Integer cached = Numbers.countOrNull(text, from, to);
      if (fields.step.cachedTokens == null) {
        fields.step.cachedTokens = cached;
      }
      return cached != null;
    }
    return true;
  }

  private static boolean isKey(String text, int from, int to, String key) {
    return to - from == key.length() && text.startsWith(key, from);
  }

  private @Nullable StepDraft fail(@Nullable String reason) {
    failure = reason;
    return null;
  }

  private static boolean isKeyChar(char c) {
    return (c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9');
  }

  /** After a key: {@code " = "} (every era) or {@code ": "} (B's num_scheduled_requests). */
  private static int separatorEnd(String text, int keyEnd) {
    if (text.startsWith(" = ", keyEnd)) {
      return keyEnd + 3;
    }
    return text.startsWith(": ", keyEnd) ? keyEnd + 2 : -1;
  }

  /** What one line gave, before the derived fields are filled in. */
  private static final class Fields {
    final StepDraft step = new StepDraft();
    @Nullable Integer scheduled;
    @Nullable Integer globalRank;
    @Nullable Instant lineTs;
    boolean states;
    @Nullable String problem;

    boolean finish() {
      if (step.iteration == null) {
        problem = "iteration line: bad 'iter' value";
        return false;
      }
      if (!states) {
        problem = "iteration line: missing 'states'";
        return false;
      }
      if (step.ts == null) {
        step.ts = lineTs;
      }
      if (globalRank != null) {
        step.rank = "RANK " + globalRank;
      }
      step.batchSize = scheduled;
      Integer ctx = step.ctxRequests;
      if (ctx == null && scheduled != null && scheduled > 0) {
        problem = "iteration line: missing 'num_ctx_requests'";
        return false;
      }
      if (scheduled != null && ctx != null && scheduled >= ctx) {
        // B–D: num_scheduled_requests counts context and generation requests (PR #3914 text)
        step.genRequests = scheduled - ctx;
      }
      return true;
    }
  }
}
