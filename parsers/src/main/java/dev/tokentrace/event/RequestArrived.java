package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * The server received a request (vLLM {@code Received request}, SGLang {@code Receive:}, ...).
 * Prompt text never enters the event.
 */
public record RequestArrived(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String requestId,
    String requestKey,
    @Nullable Integer promptTokens,
    @Nullable Integer maxTokens)
    implements EngineEvent {
  public static final String TYPE = "request_arrived";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<RequestArrived> TABLE =
      new EventTable<>(
          TYPE,
          RequestArrived.class,
          TableSchema.columns(RequestArrived.class)
              .required("request_id", VARCHAR, RequestArrived::requestId)
              .required("request_key", VARCHAR, RequestArrived::requestKey)
              .optional("prompt_tokens", INTEGER, RequestArrived::promptTokens)
              .optional("max_tokens", INTEGER, RequestArrived::maxTokens)
              .list(),
          v ->
              new RequestArrived(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.text(1),
                  v.int32(2),
                  v.int32(3)));

  public RequestArrived {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(requestId, "requestId is null");
    requireNonNull(requestKey, "requestKey is null");
    EventChecks.notBlank("requestId", requestId);
    EventChecks.nonNegative("promptTokens", promptTokens);
    EventChecks.nonNegative("maxTokens", maxTokens);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
