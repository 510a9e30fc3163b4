package dev.tokentrace.event;

import static java.util.Objects.requireNonNull;

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
