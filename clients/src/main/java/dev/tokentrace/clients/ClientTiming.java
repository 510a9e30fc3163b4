package dev.tokentrace.clients;

import static dev.tokentrace.table.ColumnType.BIGINT;
import static dev.tokentrace.table.ColumnType.BOOLEAN;
import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.TIMESTAMP;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.event.Redaction;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.table.Column;
import dev.tokentrace.table.TableSchema;
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
    @Nullable GatewayDetail gateway,
    @Nullable MatrixCell matrix) {
  /**
   * The {@code client_timing} table: one column per stored value, in table order (columns added
   * after the first release are at the end: the Appender is positional).
   */
  public static final TableSchema<Stored> TABLE =
      new TableSchema<>(
          "client_timing",
          TableSchema.columns(Stored.class)
              .required("run_id", VARCHAR, Stored::runId)
              .required("client_format", VARCHAR, Stored::clientFormat)
              .required("source_path", VARCHAR, r -> r.timing().source().path())
              .required("source_line", BIGINT, r -> r.timing().source().line())
              .required("request_id", VARCHAR, r -> r.timing().requestId())
              .required("request_key", VARCHAR, r -> r.timing().requestKey())
              .optional("start_ts", TIMESTAMP, r -> r.timing().startTs())
              .optional("start_mono_s", DOUBLE, r -> r.timing().startMonoS())
              .optional("ttft_ms", DOUBLE, r -> r.timing().ttftMs())
              .optional("e2e_ms", DOUBLE, r -> r.timing().e2eMs())
              .optional("output_tokens", INTEGER, r -> r.timing().outputTokens())
              .optional("client_queue_ms", DOUBLE, r -> r.timing().clientQueueMs())
              .optional("prompt_tokens", INTEGER, r -> r.timing().promptTokens())
              .optional("concurrency", INTEGER, r -> r.timing().concurrency())
              .required("status", VARCHAR, r -> r.timing().status())
              .add(new Column<>("warmup", BOOLEAN, false, "false", r -> r.timing().warmup()))
              // NULL in rows of older versions (= sent); always set when written now
              .optional("id_kind", VARCHAR, r -> r.timing().idKind().id())
              .optional("ack_ms", DOUBLE, r -> r.timing().detail().ackMs())
              .optional("http_connect_ms", DOUBLE, r -> r.timing().detail().connectMs())
              .optional("http_send_ms", DOUBLE, r -> r.timing().detail().sendMs())
              .optional("http_wait_ms", DOUBLE, r -> r.timing().detail().waitMs())
              .optional("http_receive_ms", DOUBLE, r -> r.timing().detail().receiveMs())
              .optional("chunks", INTEGER, r -> r.timing().detail().chunks())
              .optional("itl_max_ms", DOUBLE, r -> r.timing().detail().itlMaxMs())
              // NULL in rows of older versions (= client); always set when written now
              .optional("vantage", VARCHAR, r -> r.timing().vantage())
              .optional("http_status", INTEGER, r -> gateway(r, GatewayDetail::httpStatus))
              .optional(
                  "upstream_connect_ms", DOUBLE, r -> gateway(r, GatewayDetail::upstreamConnectMs))
              .optional(
                  "upstream_header_ms", DOUBLE, r -> gateway(r, GatewayDetail::upstreamHeaderMs))
              .optional(
                  "upstream_response_ms",
                  DOUBLE,
                  r -> gateway(r, GatewayDetail::upstreamResponseMs))
              .optional(
                  "upstream_attempts", INTEGER, r -> gateway(r, GatewayDetail::upstreamAttempts))
              .optional("upstream_addr", VARCHAR, r -> gateway(r, GatewayDetail::upstreamAddr))
              // NULL outside a loadgen --matrix sweep (sql/schema/007_client_matrix.sql)
              .optional("max_tokens", INTEGER, r -> matrix(r, MatrixCell::maxTokens))
              .optional("cell", VARCHAR, r -> matrix(r, MatrixCell::cell))
              .list());

  private static @Nullable Object matrix(
      Stored row, java.util.function.Function<MatrixCell, @Nullable Object> field) {
    MatrixCell matrix = row.timing().matrix();
    return matrix == null ? null : field.apply(matrix);
  }

  /**
   * The cell of a {@code loadgen --matrix} sweep a request belongs to
   * (docs/formats/client-files.md#matrix-columns): its label and the output length it asked for.
   */
  public record MatrixCell(String cell, @Nullable Integer maxTokens) {
    public MatrixCell {
      requireNonNull(cell, "cell is null");
      if (cell.isBlank()) {
        throw new IllegalArgumentException("cell is blank");
      }
      if (maxTokens != null && maxTokens < 1) {
        throw new IllegalArgumentException("maxTokens must be >= 1: " + maxTokens);
      }
    }
  }

  /** A row without a matrix cell (every reader but our CSV's matrix columns). */
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
      ClientDetail detail,
      @Nullable GatewayDetail gateway) {
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
        gateway,
        null);
  }

  /** This row in a matrix cell. */
  public ClientTiming inCell(@Nullable MatrixCell cell) {
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
        concurrency,
        status,
        warmup,
        idKind,
        detail,
        gateway,
        cell);
  }

  private static @Nullable Object gateway(
      Stored row, java.util.function.Function<GatewayDetail, @Nullable Object> field) {
    GatewayDetail gateway = row.timing().gateway();
    return gateway == null ? null : field.apply(gateway);
  }

  /** A row of {@code client_timing}: the timing and the run and client format it was loaded by. */
  public record Stored(String runId, String clientFormat, ClientTiming timing) {
    public Stored {
      requireNonNull(runId, "runId is null");
      requireNonNull(clientFormat, "clientFormat is null");
      requireNonNull(timing, "timing is null");
    }
  }

  /** The status of a request that completed; anything else is the client's error text. */
  public static final String STATUS_OK = "ok";

  public ClientTiming {
    requireNonNull(source, "source is null");
    requireNonNull(requestId, "requestId is null");
    requireNonNull(requestKey, "requestKey is null");
    requireNonNull(status, "status is null");
    status = Redaction.apply(status); // a client's error text may quote the request
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
        gateway,
        matrix);
  }

  private static void nonNegative(String field, @Nullable Number value) {
    if (value != null && !(value.doubleValue() >= 0 && Double.isFinite(value.doubleValue()))) {
      throw new IllegalArgumentException(field + " must be finite and >= 0: " + value);
    }
  }
}
