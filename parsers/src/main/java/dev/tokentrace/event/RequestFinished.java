package dev.tokentrace.event;

import static java.util.Objects.requireNonNull;

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
