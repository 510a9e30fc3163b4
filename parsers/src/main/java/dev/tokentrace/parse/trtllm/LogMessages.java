package dev.tokentrace.parse.trtllm;

import dev.tokentrace.event.BatchStep;
import dev.tokentrace.event.Engine;
import dev.tokentrace.event.RequestAborted;
import dev.tokentrace.event.RequestKeys;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.ServerNotice.Kind;
import dev.tokentrace.event.SourcePosition;
import dev.tokentrace.parse.ConfigFacts;
import dev.tokentrace.parse.ParseOutput;
import dev.tokentrace.parse.Rejection;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What the message of a logger line is: an iteration line, a JSON record logged as a message
 * (Triton stats, GptManager's callback), a uvicorn access line, a startup configuration line
 * ({@link StartupConfig}), a client disconnect, or a notice by {@link NoticeRules}; everything else
 * is ignored under a named rule. Not thread-safe.
 */
final class LogMessages {
  static final String OTHER_MESSAGE_RULE = "trtllm: other message";
  static final String DEBUG_RULE = "trtllm: debug message";
  static final String IDLE_RULE = "trtllm: idle iteration";
  static final String TRITON_RULE = "trtllm: triton message";
  static final String UVICORN_RULE = "trtllm: uvicorn message";

  private final String instance;
  private final IterationLines iterationLines;
  private final JsonRecords jsonRecords;
  private final NoticeGrouper grouper;

  LogMessages(
      String instance,
      IterationLines iterationLines,
      JsonRecords jsonRecords,
      NoticeGrouper grouper) {
    this.instance = instance;
    this.iterationLines = iterationLines;
    this.jsonRecords = jsonRecords;
    this.grouper = grouper;
  }

  /**
   * Handles one logger line. {@code seenTrt} says whether the source has shown a TensorRT-LLM line
   * yet; without one, lines other servers print too (uvicorn, Triton) make no event.
   */
  void handle(
      LogHeader header,
      @Nullable Instant ts,
      boolean seenTrt,
      SourcePosition position,
      ParseOutput sink) {
    String message = header.message();
    if (message.startsWith(IterationLines.PREFIX)) {
      iteration(message, ts, header.rank(), position, sink);
    } else if (message.startsWith("{\"")) {
      jsonRecords.record(message, position, ts, sink);
    } else if (Uvicorn.isAccess(message)) {
      sink.ignored(position, Uvicorn.ACCESS_RULE);
    } else if (header.trtSpecific() && config(message, ts, position, sink)) {
      return;
    } else if (!aborted(message, ts, position, sink)) {
      notice(header, ts, seenTrt, position, sink);
    }
  }

  private void iteration(
      String message,
      @Nullable Instant ts,
      @Nullable String rank,
      SourcePosition position,
      ParseOutput sink) {
    StepDraft step = iterationLines.parse(message, ts, rank);
    if (step == null) {
      String failure = iterationLines.failure();
      sink.rejected(
          Rejection.of(
              position,
              Engine.TRTLLM,
              failure == null ? "iteration line: malformed field" : failure,
              message));
      return;
    }
    BatchStep event = step.toEvent(instance, position);
    if (event == null) {
      sink.ignored(position, IDLE_RULE);
    } else {
      sink.event(event);
    }
  }

  /** A startup configuration message ({@link StartupConfig}) as server_config events. */
  private boolean config(
      String message, @Nullable Instant ts, SourcePosition position, ParseOutput sink) {
    ConfigFacts.Facts facts = StartupConfig.facts(message);
    if (facts == null || facts.facts().isEmpty()) {
      return false;
    }
    ConfigFacts.emit(Engine.TRTLLM, instance, ts, position, facts.section(), facts.facts(), sink);
    return true;
  }

  /**
   * trtllm-serve's {@code <client> is disconnected, abort <request_id>} ({@code openai_server.py @
   * e7f7345}, docs/formats/trtllm.md#uvicorn-lines); the id is the LLM-API client id, as in {@code
   * /perf_metrics}.
   */
  private boolean aborted(
      String message, @Nullable Instant ts, SourcePosition position, ParseOutput sink) {
    int marker = message.indexOf(" is disconnected, abort ");
    if (marker < 0) {
      return false;
    }
    String id = message.substring(marker + " is disconnected, abort ".length()).strip();
    if (id.isEmpty() || id.length() > 256 || id.indexOf(' ') >= 0) {
      return false;
    }
    sink.event(
        new RequestAborted(
            Engine.TRTLLM,
            instance,
            ts,
            position,
            id,
            RequestKeys.normalize(id),
            "client disconnected"));
    return true;
  }

  private void notice(
      LogHeader header,
      @Nullable Instant ts,
      boolean seenTrt,
      SourcePosition position,
      ParseOutput sink) {
    Kind kind = NoticeRules.classify(header);
    if (kind == null || !seenTrt) {
      sink.ignored(position, quietRule(header));
    } else if (header.isError()) {
      grouper.start(position, ts, header.level(), kind, header.message(), sink);
    } else {
      sink.event(
          new ServerNotice(
              Engine.TRTLLM, instance, ts, position, header.level(), kind, header.message()));
    }
  }

  private static String quietRule(LogHeader header) {
    if (header.origin() == LogHeader.Origin.UVICORN) {
      return UVICORN_RULE;
    }
    if (header.origin() == LogHeader.Origin.TRITON) {
      return TRITON_RULE;
    }
    return header.isInfo() || header.isWarning() || header.isError()
        ? OTHER_MESSAGE_RULE
        : DEBUG_RULE;
  }
}
