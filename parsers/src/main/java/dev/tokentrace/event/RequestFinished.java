package dev.tokentrace.event;

import static dev.tokentrace.table.ColumnType.INTEGER;
import static dev.tokentrace.table.ColumnType.VARCHAR;
import static java.util.Objects.requireNonNull;

import dev.tokentrace.table.TableSchema;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A request finished (lifecycle only, no durations): vLLM V0 {@code Finished request}, SGLang
 * {@code Finish:}.
 */
public record RequestFinished(
    Engine engine,
    String instance,
    @Nullable Instant ts,
    SourcePosition source,
    String requestId,
    String requestKey,
    @Nullable Integer outputTokens,
    @Nullable String finishReason)
    implements EngineEvent {
  public static final String TYPE = "request_finished";

  /** The {@value #TYPE} table: the envelope, then one column per component below it, in order. */
  public static final EventTable<RequestFinished> TABLE =
      new EventTable<>(
          TYPE,
          RequestFinished.class,
          TableSchema.columns(RequestFinished.class)
              .required("request_id", VARCHAR, RequestFinished::requestId)
              .required("request_key", VARCHAR, RequestFinished::requestKey)
              .optional("output_tokens", INTEGER, RequestFinished::outputTokens)
              .optional("finish_reason", VARCHAR, RequestFinished::finishReason)
              .list(),
          v ->
              new RequestFinished(
                  v.engine(),
                  v.instance(),
                  v.ts(),
                  v.source(),
                  v.text(0),
                  v.text(1),
                  v.int32(2),
                  v.text(3)));

  public RequestFinished {
    requireNonNull(engine, "engine is null");
    requireNonNull(instance, "instance is null");
    requireNonNull(source, "source is null");
    requireNonNull(requestId, "requestId is null");
    requireNonNull(requestKey, "requestKey is null");
    EventChecks.notBlank("requestId", requestId);
    EventChecks.nonNegative("outputTokens", outputTokens);
  }

  @Override
  public String type() {
    return TYPE;
  }
}
