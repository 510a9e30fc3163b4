package dev.tokentrace.ingest.sink;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.EngineEvent;
import dev.tokentrace.event.EngineStats;
import dev.tokentrace.event.Phase;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.json.EventJson;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decodes the JSON of an events record straight from its bytes with Jackson's streaming parser,
 * without data binding: in the sink, {@link EventJson#read} (text, then a buffered polymorphic
 * creator) was over half of the sink thread's Java samples (BENCHMARKS.md, "Ingest end to end").
 *
 * <p>It only takes the shape {@link EventJson#write} produces and builds the event with its own
 * constructor, so its checks run as before. Whenever the input leaves that shape (a non-ASCII byte,
 * a null, a duplicate or repeated field, a number where a string belongs or an integer where a
 * double does, a missing primitive, a timestamp in another form, an unknown type, trailing content,
 * a failed check), {@link #decode} returns null and the caller uses {@link EventJson#read}: what is
 * decoded here is exactly what {@code EventJson.read} would return, and everything else, including
 * every error and its message, is still decided there. Not thread-safe: one per sink.
 */
final class EventDecoder {
  private static final JsonFactory FACTORY = EventJson.mapper().getFactory();

  /** The fields of every event type (and of none: the others are skipped), by JSON name. */
  private enum Field {
    TYPE("type", Kind.TEXT),
    ENGINE("engine", Kind.TEXT),
    INSTANCE("instance", Kind.TEXT),
    TS("ts", Kind.INSTANT),
    SOURCE("source", Kind.SOURCE),
    REQUEST_ID("request_id", Kind.TEXT),
    REQUEST_KEY("request_key", Kind.TEXT),
    PROMPT_TOKENS("prompt_tokens", Kind.INT),
    MAX_TOKENS("max_tokens", Kind.INT),
    ARRIVAL_TS("arrival_ts", Kind.INSTANT),
    QUEUE_MS("queue_ms", Kind.DOUBLE),
    PREFILL_MS("prefill_ms", Kind.DOUBLE),
    DECODE_MS("decode_ms", Kind.DOUBLE),
    SERVER_TTFT_MS("server_ttft_ms", Kind.DOUBLE),
    E2E_MS("e2e_ms", Kind.DOUBLE),
    OUTPUT_TOKENS("output_tokens", Kind.INT),
    CACHED_TOKENS("cached_tokens", Kind.INT),
    FINISH_REASON("finish_reason", Kind.TEXT),
    SOURCE_KIND("source_kind", Kind.TEXT),
    ARRIVAL_MONO_S("arrival_mono_s", Kind.DOUBLE),
    REASON("reason", Kind.TEXT),
    RANK("rank", Kind.TEXT),
    INTERVAL_S("interval_s", Kind.DOUBLE),
    PROMPT_TPS("prompt_tps", Kind.DOUBLE),
    GEN_TPS("gen_tps", Kind.DOUBLE),
    RUNNING("running", Kind.INT),
    WAITING("waiting", Kind.INT),
    SWAPPED("swapped", Kind.INT),
    KV_USAGE_PCT("kv_usage_pct", Kind.DOUBLE),
    PREFIX_HIT_PCT("prefix_hit_pct", Kind.DOUBLE),
    PREEMPTIONS("preemptions", Kind.INT),
    ITERATION("iteration", Kind.LONG),
    PHASE("phase", Kind.TEXT),
    BATCH_SIZE("batch_size", Kind.INT),
    NEW_SEQS("new_seqs", Kind.INT),
    NEW_TOKENS("new_tokens", Kind.INT),
    QUEUED("queued", Kind.INT),
    TOKEN_USAGE("token_usage", Kind.DOUBLE),
    THROUGHPUT_TPS("throughput_tps", Kind.DOUBLE),
    STEP_MS("step_ms", Kind.DOUBLE),
    STEP_MS_DERIVED("step_ms_derived", Kind.BOOL),
    CTX_REQUESTS("ctx_requests", Kind.INT),
    GEN_REQUESTS("gen_requests", Kind.INT),
    LEVEL("level", Kind.TEXT),
    NOTICE_KIND("kind", Kind.TEXT),
    MESSAGE("message", Kind.TEXT);

    private static final Map<String, Field> BY_NAME = new HashMap<>();

    static {
      for (Field field : values()) {
        BY_NAME.put(field.json, field);
      }
    }

    final String json;
    final Kind kind;

    Field(String json, Kind kind) {
      this.json = json;
      this.kind = kind;
    }
  }

  /** The JSON token a field takes in {@link EventJson#write}'s output, and its Java type. */
  private enum Kind {
    TEXT,
    INT,
    LONG,
    DOUBLE,
    BOOL,
    INSTANT,
    SOURCE
  }

  private static final int FIELDS = Field.values().length;

  private final @Nullable Object[] values = new Object[FIELDS];
  private final boolean[] seen = new boolean[FIELDS];

  /** The event, or null when {@link EventJson#read} must decide (see the class comment). */
  @Nullable EngineEvent decode(byte[] json) {
    if (!ascii(json)) {
      return null; // Jackson's and String's UTF-8 decoders differ on malformed input
    }
    Arrays.fill(values, null);
    Arrays.fill(seen, false);
    try (JsonParser parser = FACTORY.createParser(json)) {
      if (!readObject(parser) || parser.nextToken() != null) {
        return null;
      }
      return build();
    } catch (IOException | RuntimeException e) {
      return null; // malformed, or a check of the event failed: EventJson.read says why
    }
  }

  private static boolean ascii(byte[] json) {
    for (byte b : json) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  private boolean readObject(JsonParser parser) throws IOException {
    if (parser.nextToken() != JsonToken.START_OBJECT) {
      return false;
    }
    for (JsonToken token = parser.nextToken();
        token != JsonToken.END_OBJECT;
        token = parser.nextToken()) {
      Field field = Field.BY_NAME.get(parser.currentName());
      JsonToken value = parser.nextToken();
      if (field == null) {
        parser.skipChildren(); // not a property of any event: EventJson ignores it too
        continue;
      }
      if (seen[field.ordinal()]) {
        return false;
      }
      seen[field.ordinal()] = true;
      Object read = read(field.kind, value, parser);
      if (read == null) {
        return false;
      }
      values[field.ordinal()] = read;
    }
    return true;
  }

  private static @Nullable Object read(Kind kind, JsonToken token, JsonParser parser)
      throws IOException {
    switch (kind) {
      case TEXT:
        return token == JsonToken.VALUE_STRING ? parser.getText() : null;
      case INT:
        return token == JsonToken.VALUE_NUMBER_INT
                && parser.getNumberType() == JsonParser.NumberType.INT
            ? Integer.valueOf(parser.getIntValue())
            : null;
      case LONG:
        return token == JsonToken.VALUE_NUMBER_INT
                && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER
            ? Long.valueOf(parser.getLongValue())
            : null;
      case DOUBLE:
        return token == JsonToken.VALUE_NUMBER_FLOAT
            ? Double.valueOf(parser.getDoubleValue())
            : null;
      case BOOL:
        return token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE
            ? Boolean.valueOf(token == JsonToken.VALUE_TRUE)
            : null;
      case INSTANT:
        return token == JsonToken.VALUE_STRING ? EventJson.parseCanonical(parser.getText()) : null;
      case SOURCE:
        return token == JsonToken.START_OBJECT ? readSource(parser) : null;
    }
    throw new IllegalStateException("unhandled kind " + kind);
  }

  /** {@code {"path":…,"line":…,"offset":…}}, other fields skipped as EventJson does. */
  private static @Nullable SourcePosition readSource(JsonParser parser) throws IOException {
    String path = null;
    Long line = null;
    Long offset = null;
    for (JsonToken token = parser.nextToken();
        token != JsonToken.END_OBJECT;
        token = parser.nextToken()) {
      String name = parser.currentName();
      JsonToken value = parser.nextToken();
      if ("path".equals(name)) {
        if (path != null || value != JsonToken.VALUE_STRING) {
          return null;
        }
        path = parser.getText();
      } else if ("line".equals(name)) {
        if (line != null || (line = (Long) read(Kind.LONG, value, parser)) == null) {
          return null;
        }
      } else if ("offset".equals(name)) {
        if (offset != null || (offset = (Long) read(Kind.LONG, value, parser)) == null) {
          return null;
        }
      } else {
        parser.skipChildren();
      }
    }
    if (path == null || line == null || offset == null) {
      return null; // a missing primitive: EventJson.read decides what that means
    }
    return new SourcePosition(path, line, offset);
  }

  private @Nullable EngineEvent build() {
    String type = text(Field.TYPE);
    if (type == null || values[Field.ENGINE.ordinal()] == null) {
      return null;
    }
    Engine engine = Engine.fromId(text(Field.ENGINE));
    String instance = text(Field.INSTANCE);
    Instant ts = instant(Field.TS);
    SourcePosition source = (SourcePosition) values[Field.SOURCE.ordinal()];
    switch (type) {
      case RequestArrived.TYPE:
        return new RequestArrived(
            engine,
            instance,
            ts,
            source,
            text(Field.REQUEST_ID),
            text(Field.REQUEST_KEY),
            int32(Field.PROMPT_TOKENS),
            int32(Field.MAX_TOKENS));
      case RequestTiming.TYPE:
        return new RequestTiming(
            engine,
            instance,
            ts,
            source,
            text(Field.REQUEST_ID),
            text(Field.REQUEST_KEY),
            instant(Field.ARRIVAL_TS),
            float64(Field.QUEUE_MS),
            float64(Field.PREFILL_MS),
            float64(Field.DECODE_MS),
            float64(Field.SERVER_TTFT_MS),
            float64(Field.E2E_MS),
            int32(Field.PROMPT_TOKENS),
            int32(Field.OUTPUT_TOKENS),
            int32(Field.CACHED_TOKENS),
            text(Field.FINISH_REASON),
            text(Field.SOURCE_KIND),
            float64(Field.ARRIVAL_MONO_S));
      case RequestFinished.TYPE:
        return new RequestFinished(
            engine,
            instance,
            ts,
            source,
            text(Field.REQUEST_ID),
            text(Field.REQUEST_KEY),
            int32(Field.OUTPUT_TOKENS),
            text(Field.FINISH_REASON));
      case RequestAborted.TYPE:
        return new RequestAborted(
            engine,
            instance,
            ts,
            source,
            text(Field.REQUEST_ID),
            text(Field.REQUEST_KEY),
            text(Field.REASON));
      case EngineStats.TYPE:
        return new EngineStats(
            engine,
            instance,
            ts,
            source,
            text(Field.RANK),
            float64(Field.INTERVAL_S),
            float64(Field.PROMPT_TPS),
            float64(Field.GEN_TPS),
            int32(Field.RUNNING),
            int32(Field.WAITING),
            int32(Field.SWAPPED),
            float64(Field.KV_USAGE_PCT),
            float64(Field.PREFIX_HIT_PCT),
            int32(Field.PREEMPTIONS));
      case BatchStep.TYPE:
        return batchStep(engine, instance, ts, source);
      case ServerNotice.TYPE:
        return notice(engine, instance, ts, source);
      default:
        return null;
    }
  }

  private @Nullable EngineEvent batchStep(
      Engine engine, String instance, @Nullable Instant ts, SourcePosition source) {
    Object derived = values[Field.STEP_MS_DERIVED.ordinal()];
    String phase = text(Field.PHASE);
    if (derived == null || phase == null) {
      return null; // a missing primitive or creator value: EventJson.read decides
    }
    return new BatchStep(
        engine,
        instance,
        ts,
        source,
        text(Field.RANK),
        (Long) values[Field.ITERATION.ordinal()],
        Phase.fromId(phase),
        int32(Field.BATCH_SIZE),
        int32(Field.NEW_SEQS),
        int32(Field.NEW_TOKENS),
        int32(Field.CACHED_TOKENS),
        int32(Field.QUEUED),
        float64(Field.TOKEN_USAGE),
        float64(Field.THROUGHPUT_TPS),
        float64(Field.STEP_MS),
        (Boolean) derived,
        int32(Field.CTX_REQUESTS),
        int32(Field.GEN_REQUESTS));
  }

  private @Nullable EngineEvent notice(
      Engine engine, String instance, @Nullable Instant ts, SourcePosition source) {
    String kind = text(Field.NOTICE_KIND);
    if (kind == null) {
      return null;
    }
    return new ServerNotice(
        engine,
        instance,
        ts,
        source,
        text(Field.LEVEL),
        ServerNotice.Kind.fromId(kind),
        text(Field.MESSAGE));
  }

  private @Nullable String text(Field field) {
    return (String) values[field.ordinal()];
  }

  private @Nullable Integer int32(Field field) {
    return (Integer) values[field.ordinal()];
  }

  private @Nullable Double float64(Field field) {
    return (Double) values[field.ordinal()];
  }

  private @Nullable Instant instant(Field field) {
    return (Instant) values[field.ordinal()];
  }
}
