package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code meta_info} of one finished request (docs/formats/sglang.md#meta-info-keys), collected
 * key by key from a Python-repr {@code Finish:} line, a JSON request log or a metrics-export
 * record, and mapped to {@code request_timing} in one place. Values of the wrong kind are "bad
 * values"; the caller rejects the line with {@link #problem()}. Not thread-safe; one per record.
 *
 * <p>The mapping, seconds to milliseconds everywhere (docs/formats/sglang.md#meta-info-keys; key
 * generations: A = v0.4.0.post2+ {@code e2e_latency}; B = v0.5.5 – v0.5.5.post1; C = v0.5.5.post2 –
 * 2026-02-24 with {@code --enable-metrics}; D = 2026-02-25+):
 *
 * <ul>
 *   <li>{@code e2e_ms} = {@code e2e_latency} (A–D; tokenizer receive to finish).
 *   <li>{@code queue_ms} = {@code queue_time} (B–D; scheduler waiting queue: forward entry − wait
 *       queue entry; may be negative for retracted requests, kept as logged).
 *   <li>{@code arrival_ts} = {@code request_received_ts} (B–D, epoch seconds).
 *   <li>{@code server_ttft_ms} = first-token time − {@code request_received_ts}, where the
 *       first-token time is {@code prefill_finished_time} (D) or {@code prefill_finished_ts} (B, C;
 *       the tokenizer's first output until 2025-12-16, the scheduler's prefill finish after).
 *   <li>{@code prefill_ms} = {@code prefill_finished_time − forward_entry_time} (D); else {@code
 *       prefill_launch_delay + prefill_launch_latency} (C; forward entry to prefill end); else
 *       {@code prefill_waiting_latency + prefill_launch_latency} (D without epochs); else {@code
 *       prefill_delay + prefill_latency} (B, the same quantities before their rename).
 *   <li>{@code decode_ms} = finish time − first-token time, where the finish time is {@code
 *       request_finished_ts} (D) or {@code decode_finished_ts} (B, C).
 * </ul>
 *
 * Nothing else is derived: a version that logs only {@code e2e_latency} gets only {@code e2e_ms}.
 */
final class MetaInfo {
  /** The {@code meta_info} keys used; all others are skipped. */
  enum Key {
    ID("id"),
    PROMPT_TOKENS("prompt_tokens"),
    COMPLETION_TOKENS("completion_tokens"),
    CACHED_TOKENS("cached_tokens"),
    FINISH_REASON("finish_reason"),
    E2E_LATENCY("e2e_latency"),
    QUEUE_TIME("queue_time"),
    PREFILL_DELAY("prefill_delay"),
    PREFILL_LATENCY("prefill_latency"),
    PREFILL_LAUNCH_DELAY("prefill_launch_delay"),
    PREFILL_LAUNCH_LATENCY("prefill_launch_latency"),
    PREFILL_WAITING_LATENCY("prefill_waiting_latency"),
    REQUEST_RECEIVED_TS("request_received_ts"),
    PREFILL_FINISHED_TS("prefill_finished_ts"),
    PREFILL_FINISHED_TIME("prefill_finished_time"),
    FORWARD_ENTRY_TIME("forward_entry_time"),
    DECODE_FINISHED_TS("decode_finished_ts"),
    REQUEST_FINISHED_TS("request_finished_ts");

    private static final Map<String, Key> BY_NAME = new HashMap<>();

    static {
      for (Key key : values()) {
        BY_NAME.put(key.text, key);
      }
    }

    final String text;

    Key(String text) {
      this.text = text;
    }

    static @Nullable Key of(String name) {
      return BY_NAME.get(name);
    }

    boolean isCount() {
      return this == PROMPT_TOKENS || this == COMPLETION_TOKENS || this == CACHED_TOKENS;
    }

    boolean isEpoch() {
      return text.endsWith("_ts") || text.endsWith("_time") && this != QUEUE_TIME;
    }
  }

  /** Epoch seconds outside 2000-01-01 .. 2100-01-01 are not wall-clock times. */
  private static final double MIN_EPOCH = 946_684_800;

  private static final double MAX_EPOCH = 4_102_444_800.0;
  private static final int MAX_REASON = 32;

  /** Seconds below this survive {@code * 1e9} in a long. */
  private static final double ROUNDING_LIMIT = 1e9;

  /** The longest duration taken as data: about 31 years. */
  private static final double MAX_SECONDS = 1e9;

  private final double[] values = new double[Key.values().length];
  private @Nullable String id;
  private @Nullable String finishReason;
  private @Nullable String abortMessage;
  private @Nullable String problem;

  MetaInfo() {
    Arrays.fill(values, Double.NaN);
  }

  /** Records a number; a value of the wrong kind becomes {@link #problem()}. */
  void number(Key key, double value) {
    boolean valid;
    if (key.isCount()) {
      valid = value >= 0 && value <= Integer.MAX_VALUE && value == Math.rint(value);
    } else if (key.isEpoch()) {
      valid = value >= MIN_EPOCH && value <= MAX_EPOCH;
    } else {
      // a duration in seconds; beyond decades it is garbage, and * 1000 could overflow
      valid = Math.abs(value) <= MAX_SECONDS && key != Key.ID && key != Key.FINISH_REASON;
    }
    if (valid) {
      values[key.ordinal()] = value;
    } else {
      bad(key);
    }
  }

  void bad(Key key) {
    if (problem == null) {
      problem = "bad '" + key.text + "' value";
    }
  }

  void id(String value) {
    id = value;
  }

  /** {@code finish_reason}'s {@code type} (v0.3+ dict) or the v0.2 string form. */
  void finishReason(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.contains("length")) {
      finishReason = "length";
    } else if (lower.contains("abort")) {
      finishReason = "abort";
    } else if (lower.contains("stop") || lower.contains("matched") || lower.contains("eos")) {
      finishReason = "stop";
    } else {
      String token = lower.replaceAll("[^a-z_]", "");
      finishReason = token.isEmpty() ? "other" : EventText.cap(token, MAX_REASON);
    }
  }

  void abortMessage(String message) {
    abortMessage = message;
  }

  @Nullable String id() {
    return id;
  }

  @Nullable String finishReason() {
    return finishReason;
  }

  @Nullable String abortMessage() {
    return abortMessage;
  }

  /** The first bad value, as a reject reason suffix ({@code bad 'e2e_latency' value}). */
  @Nullable String problem() {
    return problem;
  }

  @Nullable Integer count(Key key) {
    double value = values[key.ordinal()];
    return Double.isNaN(value) ? null : (int) value;
  }

  /** When the request finished by the server's clock (for records without a timestamp). */
  @Nullable Instant finishedAt() {
    double finished = first(Key.REQUEST_FINISHED_TS, Key.DECODE_FINISHED_TS);
    return Double.isNaN(finished) ? null : epoch(finished);
  }

  /** The timing event, or null when the record holds no duration and no arrival time at all. */
  @Nullable RequestTiming timing(
      String instance, @Nullable Instant ts, SourcePosition source, String rid, String kind) {
    double received = get(Key.REQUEST_RECEIVED_TS);
    double firstToken = first(Key.PREFILL_FINISHED_TIME, Key.PREFILL_FINISHED_TS);
    double finished = first(Key.REQUEST_FINISHED_TS, Key.DECODE_FINISHED_TS);
    Double e2e = millis(get(Key.E2E_LATENCY));
    Double queue = millis(get(Key.QUEUE_TIME));
    Double ttft = epochMillis(firstToken - received);
    Double prefill = prefillMillis();
    Double decode = epochMillis(finished - firstToken);
    Instant arrival = Double.isNaN(received) ? null : epoch(received);
    if (e2e == null && queue == null && ttft == null && prefill == null && decode == null) {
      if (arrival == null) {
        return null;
      }
    }
    return new RequestTiming(
        Engine.SGLANG,
        instance,
        ts,
        source,
        rid,
        RequestKeys.normalize(rid),
        arrival,
        queue,
        prefill,
        decode,
        ttft,
        e2e,
        count(Key.PROMPT_TOKENS),
        count(Key.COMPLETION_TOKENS),
        count(Key.CACHED_TOKENS),
        finishReason,
        kind);
  }

  private @Nullable Double prefillMillis() {
    double entered = get(Key.FORWARD_ENTRY_TIME);
    double finished = get(Key.PREFILL_FINISHED_TIME);
    if (!Double.isNaN(entered) && !Double.isNaN(finished)) {
      return epochMillis(finished - entered);
    }
    double launch = get(Key.PREFILL_LAUNCH_LATENCY);
    double delay = first(Key.PREFILL_LAUNCH_DELAY, Key.PREFILL_WAITING_LATENCY);
    if (!Double.isNaN(launch) && !Double.isNaN(delay)) {
      return millis(delay + launch);
    }
    return millis(get(Key.PREFILL_DELAY) + get(Key.PREFILL_LATENCY));
  }

  private double get(Key key) {
    return values[key.ordinal()];
  }

  private double first(Key preferred, Key fallback) {
    double value = get(preferred);
    return Double.isNaN(value) ? get(fallback) : value;
  }

  /**
   * Seconds as milliseconds, rounded to the nanosecond to drop binary noise ({@code 0.1 * 1000});
   * values beyond the rounding range stay as computed.
   */
  private static @Nullable Double millis(double seconds) {
    if (!Double.isFinite(seconds)) {
      return null;
    }
    return Math.abs(seconds) < ROUNDING_LIMIT ? Math.round(seconds * 1e9) / 1e6 : seconds * 1e3;
  }

  /**
   * A difference of two epoch-second doubles as milliseconds, rounded to the microsecond: near
   * 1.7e9 a double resolves about 0.2 µs, so finer digits are noise, not data.
   */
  private static @Nullable Double epochMillis(double seconds) {
    if (!Double.isFinite(seconds)) {
      return null;
    }
    return Math.abs(seconds) < ROUNDING_LIMIT ? Math.round(seconds * 1e6) / 1e3 : seconds * 1e3;
  }

  /** Epoch seconds as an instant with the millisecond precision events carry. */
  private static Instant epoch(double seconds) {
    long whole = (long) Math.floor(seconds);
    // round to the microsecond first: 1767225600.1 is stored as ...600.09999990463
    long micros = Math.round((seconds - whole) * 1_000_000);
    return Instant.ofEpochSecond(whole, micros / 1_000 * 1_000_000);
  }
}
