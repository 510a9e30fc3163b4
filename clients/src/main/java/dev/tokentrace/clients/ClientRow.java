package dev.tokentrace.clients;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Redaction;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One request's values as a JSON reader finds them, checked once in {@link #build} with reasons
 * that name the tool's own fields (e.g. {@code negative 'metrics.request_latency' value "-3.0"}),
 * so that {@link ClientTiming}'s constructor never sees a bad value. Not thread-safe; one per row.
 */
final class ClientRow {
  static final int MAX_REQUEST_ID = 256;

  private final SourcePosition position;
  private @Nullable String requestId;
  private @Nullable String requestKey;
  private IdKind idKind = IdKind.LOCAL;

  /** No request takes longer than this; a longer duration is a unit or clock error. */
  static final double MAX_DURATION_MS = 7 * 24 * 3600 * 1000.0;

  private static final Instant EARLIEST_START = Instant.parse("2000-01-01T00:00:00Z");
  private static final Instant LATEST_START = Instant.parse("2100-01-01T00:00:00Z");

  private @Nullable Instant startTs;
  private @Nullable Double startMonoS;
  private final Measure ttft = new Measure("ttft");
  private final Measure e2e = new Measure("e2e");
  private final Measure clientQueue = new Measure("client queue");
  private @Nullable Integer outputTokens;
  private String outputField = "output_tokens";
  private @Nullable Integer promptTokens;
  private @Nullable Integer concurrency;
  private String status = ClientTiming.STATUS_OK;
  private boolean warmup;
  private ClientDetail detail = ClientDetail.NONE;

  ClientRow(SourcePosition position) {
    this.position = requireNonNull(position, "position is null");
  }

  SourcePosition position() {
    return position;
  }

  /** The ID and its key by the one shared normalization ({@link RequestKeys#normalize}). */
  ClientRow id(String id, IdKind kind) {
    return id(id, RequestKeys.normalize(id), kind);
  }

  ClientRow id(String id, String key, IdKind kind) {
    this.requestId = id.strip();
    this.requestKey = key;
    this.idKind = kind;
    return this;
  }

  ClientRow start(@Nullable Instant start) {
    this.startTs = start;
    return this;
  }

  ClientRow startMono(@Nullable Double seconds) {
    this.startMonoS = seconds;
    return this;
  }

  ClientRow ttft(String field, @Nullable Double ms) throws BadField {
    ttft.set(field, ms);
    return this;
  }

  ClientRow e2e(String field, @Nullable Double ms) throws BadField {
    e2e.set(field, ms);
    return this;
  }

  ClientRow clientQueue(String field, @Nullable Double ms) throws BadField {
    clientQueue.set(field, ms);
    return this;
  }

  ClientRow outputTokens(String field, @Nullable Long tokens) throws BadField {
    this.outputTokens = count(field, tokens);
    this.outputField = field;
    return this;
  }

  ClientRow promptTokens(String field, @Nullable Long tokens) throws BadField {
    this.promptTokens = count(field, tokens);
    return this;
  }

  ClientRow concurrency(@Nullable Integer level) {
    this.concurrency = level != null && level >= 1 ? level : null;
    return this;
  }

  /** {@value ClientTiming#STATUS_OK}, or the client's error text (see {@link ClientFields}). */
  ClientRow status(String text) {
    this.status = Redaction.apply(text); // an error text may quote the request (docs/privacy.md)
    return this;
  }

  boolean ok() {
    return ClientTiming.STATUS_OK.equals(status);
  }

  ClientRow warmup(boolean flag) {
    this.warmup = flag;
    return this;
  }

  ClientRow detail(ClientDetail value) {
    this.detail = value;
    return this;
  }

  /**
   * The row, or why it cannot be one: a missing ID, a missing timing of a completed request, or a
   * part longer than its whole (TTFT over E2E, client queue over TTFT).
   */
  ClientTiming build() throws BadField {
    String id = requestId;
    if (id == null || id.isEmpty() || requestKey == null) {
      throw new BadField("missing request id");
    }
    if (id.length() > MAX_REQUEST_ID) {
      throw new BadField("request id longer than " + MAX_REQUEST_ID + " characters");
    }
    if (ok()) {
      ClientFields.required(ttft.field, ttft.value);
      ClientFields.required(e2e.field, e2e.value);
      ClientFields.required(outputField, outputTokens);
    }
    notAbove(ttft, e2e);
    notAbove(clientQueue, ttft);
    plausibleStart(startTs);
    return new ClientTiming(
        position,
        id,
        requestKey.isEmpty() ? id : requestKey,
        startTs,
        startMonoS,
        ttft.value,
        e2e.value,
        outputTokens,
        clientQueue.value,
        promptTokens,
        concurrency,
        status,
        warmup,
        idKind,
        detail);
  }

  private static void notAbove(Measure part, Measure whole) throws BadField {
    if (part.value != null && whole.value != null && part.value > whole.value) {
      throw new BadField(
          "'"
              + part.field
              + "' > '"
              + whole.field
              + "' ("
              + part.value
              + " > "
              + whole.value
              + ")");
    }
  }

  /**
   * A start time outside 2000-2099 is a broken clock or a placeholder (1969-12-31 from a zero
   * epoch, 9999-12-31 for "never"), not a request: it would stretch the run over centuries.
   */
  static void plausibleStart(@Nullable Instant start) throws BadField {
    if (start != null && (start.isBefore(EARLIEST_START) || !start.isBefore(LATEST_START))) {
      throw new BadField("implausible 'start_ts' value " + start + " (not in 2000-2099)");
    }
  }

  /** A duration in ms: finite, not negative and at most {@link #MAX_DURATION_MS}, or null. */
  static @Nullable Double duration(String field, @Nullable Double ms) throws BadField {
    if (ms == null) {
      return null;
    }
    if (!Double.isFinite(ms)) {
      throw new BadField("bad '" + field + "' value " + ClientFields.quote(String.valueOf(ms)));
    }
    if (ms < 0) {
      throw new BadField(
          "negative '" + field + "' value " + ClientFields.quote(String.valueOf(ms)));
    }
    if (ms > MAX_DURATION_MS) {
      throw new BadField(
          "implausible '"
              + field
              + "' value "
              + ClientFields.quote(String.valueOf(ms))
              + " (longer than 7 days)");
    }
    return ms;
  }

  private static @Nullable Integer count(String field, @Nullable Long value) throws BadField {
    if (value == null) {
      return null;
    }
    if (value < 0) {
      throw new BadField("negative '" + field + "' value " + ClientFields.quote(value.toString()));
    }
    if (value > Integer.MAX_VALUE) {
      throw new BadField("bad '" + field + "' value " + ClientFields.quote(value.toString()));
    }
    return value.intValue();
  }

  /** A duration and the tool's name for it. */
  private static final class Measure {
    private String field;
    private @Nullable Double value;

    Measure(String field) {
      this.field = field;
    }

    void set(String name, @Nullable Double ms) throws BadField {
      this.field = name;
      this.value = duration(name, ms);
    }
  }
}
