package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.BIGINT;
import static dev.tokentrace.table.ColumnType.DOUBLE;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Evidence of the KV-cache transfer of prefill/decode disaggregation (docs/formats/pd.md#events):
 * either one request's transfer ({@code request_id} and {@code request_key} set, {@code transfers}
 * 1, {@code duration_ms} its duration) or an engine's aggregate over a log interval ending at
 * {@code ts} (no request; {@code transfers} successful transfers of {@code interval_s}, {@code
 * duration_ms} their mean, {@code p90_ms}, {@code mb_per_transfer}, {@code throughput_mb_s}, and
 * the failed and expired transfers of the interval). {@code side} is the server that logged it
 * ({@code prefill} or {@code decode}), {@code peer} the other server when the line names it, and
 * {@code source_kind} the line it came from ({@code nixl_interval}: vLLM's {@code KV Transfer
 * metrics} line).
 */
public record KvTransfer(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    @Nullable String requestId,
    @Nullable String requestKey,
    String side,
    @Nullable String peer,
    @Nullable Double intervalS,
    long transfers,
    @Nullable Double durationMs,
    @Nullable Double p90Ms,
    @Nullable Double mbPerTransfer,
    @Nullable Double throughputMbS,
    @Nullable Long failed,
    @Nullable Long expired,
    String sourceKind)
    implements EngineEvent {
  public static final String TYPE = "kv_transfer";

  /** {@code source_kind} of vLLM's interval line (docs/formats/pd.md#vllm-kv-transfer-metrics). */
  public static final String NIXL_INTERVAL = "nixl_interval";

  /**
   * {@code source_kind} of one request's read timed by vLLM's NIXL DEBUG lines
   * (docs/formats/pd.md#vllm-nixl-debug-lines).
   */
  public static final String NIXL_DEBUG = "nixl_debug";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<KvTransfer> TABLE =
      new EventTable<>(
          TYPE,
          KvTransfer.class,
          TableSchema.columns(KvTransfer.class)
              .optional("request_id", VARCHAR, KvTransfer::requestId)
              .optional("request_key", VARCHAR, KvTransfer::requestKey)
              .required("side", VARCHAR, KvTransfer::side)
              .optional("peer", VARCHAR, KvTransfer::peer)
              .optional("interval_s", DOUBLE, KvTransfer::intervalS)
              .required("transfers", BIGINT, KvTransfer::transfers)
              .optional("duration_ms", DOUBLE, KvTransfer::durationMs)
              .optional("p90_ms", DOUBLE, KvTransfer::p90Ms)
              .optional("mb_per_transfer", DOUBLE, KvTransfer::mbPerTransfer)
              .optional("throughput_mb_s", DOUBLE, KvTransfer::throughputMbS)
              .optional("failed", BIGINT, KvTransfer::failed)
              .optional("expired", BIGINT, KvTransfer::expired)
              .required("source_kind", VARCHAR, KvTransfer::sourceKind)
              .list(),
          v ->
              new KvTransfer(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.text(1),
                  v.text(2),
                  v.text(3),
                  v.float64(4),
                  requireNonNull(v.int64(5), "transfers"),
                  v.float64(6),
                  v.float64(7),
                  v.float64(8),
                  v.float64(9),
                  v.int64(10),
                  v.int64(11),
                  v.text(12)));

  public KvTransfer {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(side, "side is null");
    requireNonNull(sourceKind, "sourceKind is null");
    if ((requestId == null) != (requestKey == null)) {
      throw new IllegalArgumentException("requestId and requestKey are set together");
    }
    if (requestId != null) {
      EventChecks.notBlank("requestId", requestId);
    }
    if (!side.equals("prefill") && !side.equals("decode")) {
      throw new IllegalArgumentException("side is prefill or decode, not " + side);
    }
    EventChecks.notBlank("sourceKind", sourceKind);
    EventChecks.nonNegativeFinite("intervalS", intervalS);
    EventChecks.nonNegative("transfers", transfers);
    EventChecks.nonNegativeFinite("durationMs", durationMs);
    EventChecks.nonNegativeFinite("p90Ms", p90Ms);
    EventChecks.nonNegativeFinite("mbPerTransfer", mbPerTransfer);
    EventChecks.nonNegativeFinite("throughputMbS", throughputMbS);
    EventChecks.nonNegative("failed", failed);
    EventChecks.nonNegative("expired", expired);
    peer = peer == null ? null : EventChecks.cap(peer, GpuSample.MAX_TEXT);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
