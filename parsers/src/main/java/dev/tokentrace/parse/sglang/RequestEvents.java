package dev.tokentrace.parse.sglang;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestArrived;
import dev.tokentrace.event.RequestFinished;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.RequestTiming;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ParseOutput;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Emits the request lifecycle events shared by the text ({@code Receive:}/{@code Finish:}) and JSON
 * ({@code --log-requests-format json}, metrics export) request sources. The rid is SGLang's request
 * ID as logged; {@code request_key} is its {@link RequestKeys#normalize} form. Stateless.
 */
final class RequestEvents {
  /** Abort messages are SGLang's own text, but may quote lengths or fields: keep them short. */
  private static final int MAX_ABORT_REASON = 200;

  private final String instance;

  /**
   * The current line's time is a wrapper's (a collector or layout printed it, not SGLang): the
   * record's own finish time then wins (docs/formats/layouts.md#which-time).
   */
  private boolean wrapperTime;

  RequestEvents(String instance) {
    this.instance = instance;
  }

  void wrapperTime(boolean fromWrapper) {
    wrapperTime = fromWrapper;
  }

  void arrived(
      @Nullable Instant ts,
      SourcePosition source,
      String rid,
      @Nullable Integer maxTokens,
      ParseOutput sink) {
    sink.event(
        new RequestArrived(
            Engine.SGLANG, instance, ts, source, rid, RequestKeys.normalize(rid), null, maxTokens));
  }

  /**
   * {@code request_finished}, {@code request_aborted} when SGLang finished it with type {@code
   * abort}, and {@code request_timing} of {@code kind} when {@code meta} holds any timing.
   */
  void finished(
      @Nullable Instant ts,
      SourcePosition source,
      String rid,
      @Nullable MetaInfo meta,
      String kind,
      ParseOutput sink) {
    String key = RequestKeys.normalize(rid);
    Instant own = meta == null ? null : meta.finishedAt();
    Instant when = ts == null || (wrapperTime && own != null) ? own : ts;
    Integer output = meta == null ? null : meta.count(MetaInfo.Key.COMPLETION_TOKENS);
    String reason = meta == null ? null : meta.finishReason();
    sink.event(
        new RequestFinished(Engine.SGLANG, instance, when, source, rid, key, output, reason));
    if ("abort".equals(reason)) {
      String message = meta.abortMessage();
      String text =
          message == null
              ? null
              : EventText.cap(EventText.withoutRequest(message), MAX_ABORT_REASON);
      sink.event(new RequestAborted(Engine.SGLANG, instance, when, source, rid, key, text));
    }
    timing(when, source, rid, meta, kind, sink);
  }

  /** Only the timing (Req Time Stats lines, metrics export records); false when there is none. */
  boolean timing(
      @Nullable Instant ts,
      SourcePosition source,
      String rid,
      @Nullable MetaInfo meta,
      String kind,
      ParseOutput sink) {
    RequestTiming timing = meta == null ? null : meta.timing(instance, ts, source, rid, kind);
    if (timing != null) {
      sink.event(timing);
    }
    return timing != null;
  }

  String instance() {
    return instance;
  }
}
