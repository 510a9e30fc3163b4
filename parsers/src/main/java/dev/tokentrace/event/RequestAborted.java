package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/** A request was aborted or failed on the server (client disconnect, engine dead, bad request). */
public record RequestAborted(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String requestId,
    String requestKey,
    @Nullable String reason)
    implements EngineEvent {
  public static final String TYPE = "request_aborted";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<RequestAborted> TABLE =
      new EventTable<>(
          TYPE,
          RequestAborted.class,
          TableSchema.columns(RequestAborted.class)
              .required("request_id", VARCHAR, RequestAborted::requestId)
              .required("request_key", VARCHAR, RequestAborted::requestKey)
              .optional("reason", VARCHAR, RequestAborted::reason)
              .list(),
          v ->
              new RequestAborted(
                  v.engine(), v.instance(), v.ts(), v.source(), v.text(0), v.text(1), v.text(2)));

  static final int MAX_REASON = 512;

  public RequestAborted {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(requestId, "requestId is null");
    requireNonNull(requestKey, "requestKey is null");
    EventChecks.notBlank("requestId", requestId);
    reason = reason == null ? null : EventChecks.cap(Redaction.apply(reason), MAX_REASON);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
