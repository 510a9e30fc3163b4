package dev.tokentrace.ingest.kafka;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * Writes an event as the bytes of {@link EventJson#write} without data binding: in the shipper,
 * {@code EventJson.write} (Jackson's bean serializer, a {@code DateTimeFormatter} per timestamp,
 * then the text's UTF-8 encoding) took over a quarter of the shipping thread's samples
 * (BENCHMARKS.md, "Ingest end to end").
 *
 * <p>Same fields in the same order (the type id, then the record components), nulls left out,
 * numbers as Jackson writes them ({@link Integer#toString}, {@link Long#toString}, {@link
 * Double#toString}), timestamps as {@link EventJson#TIMESTAMP}. It writes only what needs no
 * escaping: an event with a text value outside printable ASCII or with a quote or backslash, a
 * timestamp outside the years 1000-9999, or a non-finite number goes through {@link
 * EventJson#write} instead, so the bytes are always the same. Thread-safe (no shared state).
 */
final class EventEncoder {
  private byte[] bytes = new byte[512];
  private int length;

  private EventEncoder() {}

  /** The event's JSON, byte for byte what {@code EventJson.write(event)} encodes to UTF-8. */
  static byte[] encode(EngineEvent event) {
    EventEncoder encoder = new EventEncoder();
    if (encoder.write(event)) {
      return Arrays.copyOf(encoder.bytes, encoder.length);
    }
    return EventJson.write(event).getBytes(UTF_8);
  }

  private boolean write(EngineEvent event) {
    raw("{\"type\":\"");
    raw(event.type());
    raw("\"");
    if (!text("engine", event.engine().id())
        || !text("instance", event.instance())
        || !instant("ts", event.ts())
        || !source(event.source())) {
      return false;
    }
    if (event instanceof RequestArrived) {
      return arrived((RequestArrived) event);
    } else if (event instanceof RequestTiming) {
      return timing((RequestTiming) event);
    } else if (event instanceof RequestFinished) {
      return finished((RequestFinished) event);
    } else if (event instanceof RequestAborted) {
      return aborted((RequestAborted) event);
    } else if (event instanceof EngineStats) {
      return stats((EngineStats) event);
    } else if (event instanceof BatchStep) {
      return step((BatchStep) event);
    } else if (event instanceof ServerNotice) {
      return notice((ServerNotice) event);
    }
    return false;
  }

  private boolean arrived(RequestArrived event) {
    return text("request_id", event.requestId())
        && text("request_key", event.requestKey())
        && number("prompt_tokens", event.promptTokens())
        && number("max_tokens", event.maxTokens())
        && end();
  }

  private boolean timing(RequestTiming event) {
    return text("request_id", event.requestId())
        && text("request_key", event.requestKey())
        && instant("arrival_ts", event.arrivalTs())
        && number("queue_ms", event.queueMs())
        && number("prefill_ms", event.prefillMs())
        && number("decode_ms", event.decodeMs())
        && number("server_ttft_ms", event.serverTtftMs())
        && number("e2e_ms", event.e2eMs())
        && number("prompt_tokens", event.promptTokens())
        && number("output_tokens", event.outputTokens())
        && number("cached_tokens", event.cachedTokens())
        && text("finish_reason", event.finishReason())
        && text("source_kind", event.sourceKind())
        && number("arrival_mono_s", event.arrivalMonoS())
        && end();
  }

  private boolean finished(RequestFinished event) {
    return text("request_id", event.requestId())
        && text("request_key", event.requestKey())
        && number("output_tokens", event.outputTokens())
        && text("finish_reason", event.finishReason())
        && end();
  }

  private boolean aborted(RequestAborted event) {
    return text("request_id", event.requestId())
        && text("request_key", event.requestKey())
        && text("reason", event.reason())
        && end();
  }

  private boolean stats(EngineStats event) {
    return text("rank", event.rank())
        && number("interval_s", event.intervalS())
        && number("prompt_tps", event.promptTps())
        && number("gen_tps", event.genTps())
        && number("running", event.running())
        && number("waiting", event.waiting())
        && number("swapped", event.swapped())
        && number("kv_usage_pct", event.kvUsagePct())
        && number("prefix_hit_pct", event.prefixHitPct())
        && number("preemptions", event.preemptions())
        && end();
  }

  private boolean step(BatchStep event) {
    return text("rank", event.rank())
        && number("iteration", event.iteration())
        && text("phase", event.phase().id())
        && number("batch_size", event.batchSize())
        && number("new_seqs", event.newSeqs())
        && number("new_tokens", event.newTokens())
        && number("cached_tokens", event.cachedTokens())
        && number("queued", event.queued())
        && number("token_usage", event.tokenUsage())
        && number("throughput_tps", event.throughputTps())
        && number("step_ms", event.stepMs())
        && number("step_ms_derived", event.stepMsDerived())
        && number("ctx_requests", event.ctxRequests())
        && number("gen_requests", event.genRequests())
        && end();
  }

  private boolean notice(ServerNotice event) {
    return text("level", event.level())
        && text("kind", event.kind().id())
        && text("message", event.message())
        && end();
  }

  private boolean source(SourcePosition source) {
    name("source");
    raw("{\"path\":");
    if (!quoted(source.path())) {
      return false;
    }
    raw(",\"line\":");
    raw(Long.toString(source.line()));
    raw(",\"offset\":");
    raw(Long.toString(source.offset()));
    raw("}");
    return true;
  }

  private boolean end() {
    raw("}");
    return true;
  }

  private boolean text(String name, @Nullable String value) {
    if (value == null) {
      return true;
    }
    name(name);
    return quoted(value);
  }

  /** Integers, longs and booleans as Jackson writes them; doubles only when finite. */
  private boolean number(String name, @Nullable Object value) {
    if (value == null) {
      return true;
    }
    if (value instanceof Double && !Double.isFinite((Double) value)) {
      return false; // Jackson writes "NaN" and the infinities as strings
    }
    name(name);
    raw(value.toString());
    return true;
  }

  /** {@link EventJson#TIMESTAMP}: {@code 2026-02-13T11:33:33.000Z}, milliseconds truncated. */
  private boolean instant(String name, @Nullable Instant value) {
    if (value == null) {
      return true;
    }
    LocalDateTime time = LocalDateTime.ofEpochSecond(value.getEpochSecond(), 0, ZoneOffset.UTC);
    if (time.getYear() < 1000 || time.getYear() > 9999) {
      return false; // the formatter's sign and padding rules take over there
    }
    name(name);
    ensure(26);
    bytes[length++] = '"';
    digits(time.getYear(), 4);
    bytes[length++] = '-';
    digits(time.getMonthValue(), 2);
    bytes[length++] = '-';
    digits(time.getDayOfMonth(), 2);
    bytes[length++] = 'T';
    digits(time.getHour(), 2);
    bytes[length++] = ':';
    digits(time.getMinute(), 2);
    bytes[length++] = ':';
    digits(time.getSecond(), 2);
    bytes[length++] = '.';
    digits(value.getNano() / 1_000_000, 3);
    bytes[length++] = 'Z';
    bytes[length++] = '"';
    return true;
  }

  private void digits(int value, int count) {
    for (int i = length + count - 1; i >= length; i--) {
      bytes[i] = (byte) ('0' + value % 10);
      value /= 10;
    }
    length += count;
  }

  private void name(String name) {
    ensure(name.length() + 4);
    bytes[length++] = ',';
    bytes[length++] = '"';
    ascii(name);
    bytes[length++] = '"';
    bytes[length++] = ':';
  }

  /** The value in quotes; false when it needs escaping or is not printable ASCII. */
  private boolean quoted(String value) {
    ensure(value.length() + 2);
    bytes[length++] = '"';
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
      bytes[length++] = (byte) c;
    }
    bytes[length++] = '"';
    return true;
  }

  private void raw(String ascii) {
    ensure(ascii.length());
    ascii(ascii);
  }

  private void ascii(String ascii) {
    for (int i = 0; i < ascii.length(); i++) {
      bytes[length++] = (byte) ascii.charAt(i);
    }
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(2 * bytes.length, length + more));
    }
  }
}
