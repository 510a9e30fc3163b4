package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * One line of a P/D proxy's access log (docs/formats/pd.md#proxy-access-log): the client's request
 * ID and the one the proxy sent to the prefill and decode servers instead, with their request keys,
 * and the servers and status where logged. {@code engine} is the engine of the servers behind the
 * proxy (the one the file was read as), {@code instance} the proxy's name, {@code ts} when it
 * logged the request. The attribution joins client rows to the servers' records through it
 * (attribution/proxy_keys).
 */
public record ProxyRequest(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String clientRequestId,
    String clientKey,
    String upstreamRequestId,
    String upstreamKey,
    @Nullable String prefill,
    @Nullable String decode,
    @Nullable Integer status)
    implements EngineEvent {
  public static final String TYPE = "proxy_request";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<ProxyRequest> TABLE =
      new EventTable<>(
          TYPE,
          ProxyRequest.class,
          TableSchema.columns(ProxyRequest.class)
              .required("client_request_id", VARCHAR, ProxyRequest::clientRequestId)
              .required("client_key", VARCHAR, ProxyRequest::clientKey)
              .required("upstream_request_id", VARCHAR, ProxyRequest::upstreamRequestId)
              .required("upstream_key", VARCHAR, ProxyRequest::upstreamKey)
              .optional("prefill", VARCHAR, ProxyRequest::prefill)
              .optional("decode", VARCHAR, ProxyRequest::decode)
              .optional("status", INTEGER, ProxyRequest::status)
              .list(),
          v ->
              new ProxyRequest(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  requireNonNull(v.text(0), "client_request_id"),
                  requireNonNull(v.text(1), "client_key"),
                  requireNonNull(v.text(2), "upstream_request_id"),
                  requireNonNull(v.text(3), "upstream_key"),
                  v.text(4),
                  v.text(5),
                  v.int32(6)));

  public ProxyRequest {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    EventChecks.notBlank("clientRequestId", requireNonNull(clientRequestId, "clientRequestId"));
    EventChecks.notBlank("clientKey", requireNonNull(clientKey, "clientKey"));
    EventChecks.notBlank(
        "upstreamRequestId", requireNonNull(upstreamRequestId, "upstreamRequestId"));
    EventChecks.notBlank("upstreamKey", requireNonNull(upstreamKey, "upstreamKey"));
    prefill = prefill == null ? null : EventChecks.cap(prefill, GpuSample.MAX_TEXT);
    decode = decode == null ? null : EventChecks.cap(decode, GpuSample.MAX_TEXT);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
