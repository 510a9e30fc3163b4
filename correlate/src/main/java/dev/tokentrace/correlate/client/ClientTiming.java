package dev.tokentrace.correlate.client;

import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.event.UserText;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One request as a benchmark client saw it (a row of {@code client_timing}). {@code ttftMs} and
 * {@code e2eMs} are measured from {@code startTs}, the moment the workload issued the request, and
 * include {@code clientQueueMs}, the time it then waited inside the client before being sent
 * (docs/design.md#attribution: client_ttft = client_queue + network_ttft + queue + prefill).
 * Timings and token counts may be null only for a failed request ({@code status} other than {@value
 * #STATUS_OK}).
 *
 * <p>{@code idKind} says whether the server can know {@code requestId} (and so whether the row can
 * be joined by key); {@code detail} holds what only some clients record (HTTP phases, chunks);
 * {@code gateway} is set for a row read from a gateway's access log (NGINX, Envoy). A completed row
 * without {@code ttftMs} comes from a tool that sees only the end of a response (wrk, JMeter,
 * gateways): it is attributed by the end-to-end view, and its token counts may be unknown.
 */
public record ClientTiming(
    SourcePosition source,
    String requestId,
    String requestKey,
    @Nullable Instant startTs,
    @Nullable Double startMonoS,
    @Nullable Double ttftMs,
    @Nullable Double e2eMs,
    @Nullable Integer outputTokens,
    @Nullable Double clientQueueMs,
    @Nullable Integer promptTokens,
    @Nullable Integer concurrency,
    String status,
    boolean warmup,
    IdKind idKind,
    ClientDetail detail,
    @Nullable GatewayDetail gateway) {
  /** The status of a request that completed; anything else is the client's error text. */
  public static final String STATUS_OK = "ok";

  public ClientTiming {
    requireNonNull(source, "source is null");
    requireNonNull(requestId, "requestId is null");
    requireNonNull(requestKey, "requestKey is null");
    requireNonNull(status, "status is null");
    status = UserText.redact(status); // a client's error text may quote the request
    requireNonNull(idKind, "idKind is null");
    requireNonNull(detail, "detail is null");
    if (requestId.isBlank()) {
      throw new IllegalArgumentException("requestId is blank");
    }
    if (status.isBlank()) {
      throw new IllegalArgumentException("status is blank");
    }
    nonNegative("ttftMs", ttftMs);
    nonNegative("e2eMs", e2eMs);
    nonNegative("clientQueueMs", clientQueueMs);
    nonNegative("outputTokens", outputTokens);
    nonNegative("promptTokens", promptTokens);
    if (concurrency != null && concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be >= 1: " + concurrency);
    }
    if (ttftMs != null && e2eMs != null && ttftMs > e2eMs) {
      throw new IllegalArgumentException("ttftMs must be <= e2eMs: " + ttftMs + " > " + e2eMs);
    }
    if (STATUS_OK.equals(status) && e2eMs == null) {
      throw new IllegalArgumentException("e2eMs is required when ok");
    }
    if (STATUS_OK.equals(status) && ttftMs != null && outputTokens == null) {
      throw new IllegalArgumentException("outputTokens is required when ok with a ttftMs");
    }
  }

  /**
   * A row of a streaming-aware client, as before gateways: no gateway detail ({@code gateway} null
   * means the client's own vantage point).
   */
  public ClientTiming(
      SourcePosition source,
      String requestId,
      String requestKey,
      @Nullable Instant startTs,
      @Nullable Double startMonoS,
      @Nullable Double ttftMs,
      @Nullable Double e2eMs,
      @Nullable Integer outputTokens,
      @Nullable Double clientQueueMs,
      @Nullable Integer promptTokens,
      @Nullable Integer concurrency,
      String status,
      boolean warmup,
      IdKind idKind,
      ClientDetail detail) {
    this(
        source,
        requestId,
        requestKey,
        startTs,
        startMonoS,
        ttftMs,
        e2eMs,
        outputTokens,
        clientQueueMs,
        promptTokens,
        concurrency,
        status,
        warmup,
        idKind,
        detail,
        null);
  }

  /**
   * Where the row was measured: {@code client} (a load generator), or {@code gateway} (a reverse
   * proxy's access log, between client and engine); stored in {@code client_timing.vantage}.
   */
  public String vantage() {
    return gateway == null ? "client" : "gateway";
  }

  /**
   * {@code ttft} when the row has a first-token time, else {@code e2e}: the tool sees only the end
   * of the response (wrk, JMeter, gateways; docs/formats/gateways.md#views).
   */
  public String timingView() {
    return ttftMs == null ? "e2e" : "ttft";
  }

  /** A row of our CSV: an ID the client sent, no transport detail. */
  public ClientTiming(
      SourcePosition source,
      String requestId,
      String requestKey,
      @Nullable Instant startTs,
      @Nullable Double startMonoS,
      @Nullable Double ttftMs,
      @Nullable Double e2eMs,
      @Nullable Integer outputTokens,
      @Nullable Double clientQueueMs,
      @Nullable Integer promptTokens,
      @Nullable Integer concurrency,
      String status,
      boolean warmup) {
    this(
        source,
        requestId,
        requestKey,
        startTs,
        startMonoS,
        ttftMs,
        e2eMs,
        outputTokens,
        clientQueueMs,
        promptTokens,
        concurrency,
        status,
        warmup,
        IdKind.SENT,
        ClientDetail.NONE);
  }

  /** True when the request completed. */
  public boolean ok() {
    return STATUS_OK.equals(status);
  }

  /** This row with a concurrency level filled in where the file had none. */
  public ClientTiming withDefaultConcurrency(@Nullable Integer level) {
    if (concurrency != null || level == null) {
      return this;
    }
    return new ClientTiming(
        source,
        requestId,
        requestKey,
        startTs,
        startMonoS,
        ttftMs,
        e2eMs,
        outputTokens,
        clientQueueMs,
        promptTokens,
        level,
        status,
        warmup,
        idKind,
        detail,
        gateway);
  }

  private static void nonNegative(String field, @Nullable Number value) {
    if (value != null && !(value.doubleValue() >= 0 && Double.isFinite(value.doubleValue()))) {
      throw new IllegalArgumentException(field + " must be finite and >= 0: " + value);
    }
  }
}
