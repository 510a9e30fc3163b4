package dev.tokentrace.parse.vllm;

import dev.tokentrace.event.Engine;
import dev.tokentrace.event.ServerNotice;
import dev.tokentrace.event.SourcePosition;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A WARNING, ERROR or CRITICAL record being folded into one notice together with its continuation
 * lines and traceback, or a traceback printed without a header. Keeps only what the notice needs:
 * the first line and the exception lines, never the whole text. The message is {@code first line:
 * exception line}, preferring the out-of-memory exception when there is one (for example {@code
 * EngineCore encountered a fatal error.: torch.OutOfMemoryError: CUDA out of memory. ...}).
 */
final class PendingNotice {
  private static final int MAX_PART = ServerNotice.MAX_MESSAGE;

  private final SourcePosition position;
  private final @Nullable Instant ts;
  private final String level;
  private final boolean error;
  private final @Nullable String process;
  private final String first;
  private @Nullable String lastException;
  private @Nullable String oomException;
  private boolean outOfMemory;
  private boolean traceback;

  /**
   * @param first the record's first message line, or for a raw traceback a label such as {@code
   *     Process EngineCore_DP0} (empty when there is nothing better than the exception line)
   */
  PendingNotice(
      SourcePosition position,
      @Nullable Instant ts,
      Level level,
      @Nullable String process,
      String first) {
    this.position = position;
    this.ts = ts;
    this.level = level.name();
    this.error = level.isError();
    this.process = process;
    this.first = cap(withoutDump(first));
    this.outOfMemory = error && Tracebacks.mentionsOutOfMemory(first);
    if (Tracebacks.isExceptionLine(first)) {
      lastException = this.first;
    }
  }

  boolean isError() {
    return error;
  }

  @Nullable String process() {
    return process;
  }

  /** True once traceback text was added: free text after it is the exception's message. */
  boolean hasTraceback() {
    return traceback;
  }

  /** Adds a continuation or traceback line (without header or process prefix). */
  void add(String text) {
    if (Tracebacks.isTracebackLine(text)) {
      traceback = true;
    }
    boolean oom = error && Tracebacks.mentionsOutOfMemory(text);
    outOfMemory |= oom;
    String what = Tracebacks.cppWhat(text);
    if (Tracebacks.isExceptionLine(text) || what != null) {
      lastException = cap(what != null ? what : text);
      if (oom) {
        oomException = lastException;
      }
    }
  }

  ServerNotice toNotice(String instance) {
    String exception = oomException != null ? oomException : lastException;
    String message;
    if (exception == null || first.contains(exception)) {
      message = first.isEmpty() ? Tracebacks.START : first;
    } else {
      message = first.isEmpty() ? exception : first + ": " + exception;
    }
    ServerNotice.Kind kind =
        !error
            ? ServerNotice.Kind.WARNING
            : outOfMemory ? ServerNotice.Kind.OOM : ServerNotice.Kind.ERROR;
    return new ServerNotice(Engine.VLLM, instance, ts, position, level, kind, message);
  }

  /**
   * V1 error dumps ({@code Dumping scheduler output for model execution: SchedulerOutput(...)},
   * d43f914d4, 2025-05-07; docs/formats/vllm.md#scheduler-lines) print request data after the
   * colon: keep the label.
   */
  private static String withoutDump(String text) {
    int colon = text.indexOf(':');
    return text.startsWith("Dumping ") && colon > 0 ? text.substring(0, colon) : text;
  }

  private static String cap(String text) {
    return text.length() <= MAX_PART ? text : text.substring(0, MAX_PART);
  }
}
